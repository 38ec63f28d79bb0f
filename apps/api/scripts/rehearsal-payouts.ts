// pnpm rehearsal-payouts queue <count> | report <batch>
// For the production rehearsal's drill 1 only (ORO_REHEARSAL=true, the development chain): `queue` makes one
// referrer and <count> payable referrals whose referee rewards are paid `auto`, each with a voucher the API's
// signer signs as activation does, so that the replicas' payout workers have work in flight while one is killed.
// `report` says, for that batch, what the database and the chain hold: rewards paid, nonces used on chain, and
// each referee's ORO (a reward paid once leaves exactly its amount; nothing else sends ORO to these fresh wallets),
// and what the claim contract still holds for the next batch.
// Both print one JSON line.
import { randomBytes } from "node:crypto";
import { getAddress, erc20Abi, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { referralClaimAbi } from "@oro/clients";
import { openDatabase } from "../src/db/database.js";
import { ConfigError, loadConfig } from "../src/env.js";
import { createChainService } from "../src/services/chain/chain.js";
import { createSignedVoucher, voucherNonceLoader } from "../src/services/payouts/vouchers.js";
import { createReferralCodes } from "../src/services/referrals/codes.js";

const USAGE = "usage: rehearsal-payouts queue <count> | report <batch (the referrer's address)>";

const freshAddress = (): string => privateKeyToAddress(generatePrivateKey()).toLowerCase();
const freshHuman = (): Hex => `0x${randomBytes(32).toString("hex")}`;

async function main(): Promise<void> {
  const [command, argument] = process.argv.slice(2);
  const config = loadConfig();
  if (!config.rehearsal) throw new ConfigError("rehearsal-payouts runs only in a rehearsal (ORO_REHEARSAL=true on the development chain)");
  if (!config.payoutWalletKey) throw new ConfigError("rehearsal-payouts needs PAYOUT_WALLET_PRIVATE_KEY: the payout workers send these rewards");
  const database = await openDatabase(config.database);
  const { prisma } = database;
  const chain = createChainService({
    chainId: config.chain.id,
    rpcUrl: config.chain.rpcUrl,
    claimContract: config.chain.claimContract,
    claimSignerKey: config.claimSignerKey,
    payoutWalletKey: config.payoutWalletKey,
  });
  try {
    if (command === "queue" && argument && /^[1-9]\d{0,3}$/.test(argument)) {
      const referrer = await prisma.user.create({ data: { address: freshAddress() } });
      const code = await createReferralCodes(database).codeForUser(referrer, config.notifications.appId);
      const referralCode = await prisma.referralCode.findUniqueOrThrow({ where: { code } });
      const referrerHuman = freshHuman();
      const amount = config.referral.referee.amountWei;
      const nonces = await voucherNonceLoader(prisma)();
      for (let i = 0; i < Number(argument); i++) {
        await prisma.$transaction(async (tx) => {
          const referee = await tx.user.create({ data: { address: freshAddress() } });
          const referral = await tx.referral.create({
            data: {
              referrerId: referrer.id,
              refereeId: referee.id,
              referralCodeId: referralCode.id,
              status: "payable",
              refereeNullifierHash: freshHuman(),
              referrerNullifierHash: referrerHuman,
              activatedAt: new Date(),
            },
          });
          const voucher = await createSignedVoucher(tx, nonces, chain, getAddress(referee.address), amount);
          await tx.referralReward.create({
            data: {
              referralId: referral.id,
              side: "referee",
              beneficiaryId: referee.id,
              paymentType: "auto",
              amountWei: voucher.amount.toString(),
              voucherNonce: voucher.nonce.toString(),
              voucherSignature: voucher.signature,
              chainId: voucher.chainId,
              contractAddress: voucher.contractAddress,
              status: "payout_pending",
            },
          });
        });
      }
      console.log(JSON.stringify({ batch: referrer.address, queued: Number(argument), payoutWallet: chain.payoutWallet }));
      return;
    }
    if (command === "report" && argument && /^0x[0-9a-f]{40}$/.test(argument)) {
      const rewards = await prisma.referralReward.findMany({
        where: { referral: { referrer: { address: argument } } },
        select: { status: true, amountWei: true, voucherNonce: true, payoutTxHash: true, payoutAttempts: true, beneficiary: { select: { address: true } } },
      });
      const token = await chain.publicClient.readContract({ address: chain.claimContract, abi: referralClaimAbi, functionName: "token" });
      let nonceUsed = 0;
      let paidExactlyOnce = 0;
      for (const reward of rewards) {
        if (await chain.isNonceUsed(BigInt(reward.voucherNonce.toFixed()))) nonceUsed++;
        const balance = await chain.publicClient.readContract({
          address: token,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [getAddress(reward.beneficiary.address)],
        });
        if (balance === BigInt(reward.amountWei.toFixed())) paidExactlyOnce++;
      }
      const payoutTransactions = rewards.map((reward) => reward.payoutTxHash).filter((hash) => hash !== null);
      console.log(
        JSON.stringify({
          rewards: rewards.length,
          paid: rewards.filter((reward) => reward.status === "paid").length,
          // Leased more than once: a worker died holding it (or a send failed) and another took it over.
          leasedAgain: rewards.filter((reward) => reward.payoutAttempts > 1).length,
          nonceUsedOnChain: nonceUsed,
          refereesHoldingExactlyTheirReward: paidExactlyOnce,
          payoutTransactionsRecorded: payoutTransactions.length,
          payoutTransactionsShared: payoutTransactions.length - new Set(payoutTransactions).size,
          payoutWalletTransactionCount: chain.payoutWallet ? await chain.publicClient.getTransactionCount({ address: chain.payoutWallet }) : null,
          // What a new batch may spend: the claim contract's ORO, and what one reward costs.
          claimContractOroWei: (await chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [chain.claimContract] })).toString(),
          rewardWei: config.referral.referee.amountWei.toString(),
        }),
      );
      return;
    }
    throw new ConfigError(USAGE);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
