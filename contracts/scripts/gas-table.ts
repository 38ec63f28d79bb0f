/**
 * Gas benchmark: prints what mint (first and repeat), claim and previewClaim cost, beside the reference
 * figures of ../shared/TARGETS.md. Mint is measured with a no-op World ID verifier, 0.5 ORO and 24 h,
 * as the reference was. Run: pnpm --filter @oro/contracts bench
 */
import hre from "hardhat";
import { time } from "@nomicfoundation/hardhat-network-helpers";
import { encodeFunctionData, hexToBytes, parseEther, type Hex } from "viem";
import { referralVoucherTypedData } from "@oro/clients";

const REFERENCE = {
  firstMint: 62_317n,
  repeatMint: 28_117n,
  secondHumanToHolder: 45_217n,
} as const;
const TARGET_RATIO_PERCENT = 90n;

/** Intrinsic gas of a transaction: 21,000 plus 16 per non-zero and 4 per zero calldata byte. */
function intrinsicGas(data: Hex): bigint {
  let gas = 21_000n;
  for (const byte of hexToBytes(data)) gas += byte === 0 ? 4n : 16n;
  return gas;
}

async function main(): Promise<void> {
  const publicClient = await hre.viem.getPublicClient();
  const [owner, alice, bob] = await hre.viem.getWalletClients();
  if (!owner || !alice || !bob) throw new Error("the hardhat network needs at least three accounts");

  const verifier = await hre.viem.deployContract("NoopWorldIdRouter");
  const oro = await hre.viem.deployContract("Oro", [
    verifier.address, "app_gas_benchmark", "claim-tokens-action", 31337n, parseEther("0.5"), 86_400n, owner.account.address,
  ]);
  const proof = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n] as const;
  const root = 0x1234n;

  async function measureMint(from: NonNullable<typeof alice>, nullifierHash: bigint): Promise<{ gasUsed: bigint; execution: bigint }> {
    const hash = await oro.write.mint([root, nullifierHash, proof], { account: from.account });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    const tx = await publicClient.getTransaction({ hash });
    return { gasUsed: receipt.gasUsed, execution: receipt.gasUsed - intrinsicGas(tx.input) };
  }

  const firstMint = await measureMint(alice, 0xa11ce_0001n);
  await time.increase(86_400);
  const repeatMint = await measureMint(alice, 0xa11ce_0001n);
  const secondHuman = await measureMint(alice, 0xb0b_0002n);

  // Referral voucher claim against a funded claim contract.
  const claims = await hre.viem.deployContract("ReferralClaim", [oro.address, owner.account.address, owner.account.address]);
  await oro.write.transfer([claims.address, parseEther("0.5")], { account: alice.account });
  const voucher = { account: bob.account.address, amount: parseEther("0.25"), nonce: 7n };
  const signature = await owner.signTypedData(referralVoucherTypedData(31337, claims.address, voucher));
  const previewGas = await publicClient.estimateGas({
    to: claims.address,
    data: encodeFunctionData({
      abi: claims.abi, functionName: "previewClaim", args: [voucher.account, voucher.amount, voucher.nonce, signature],
    }),
  });
  const claimHash = await claims.write.claim([voucher, signature], { account: alice.account });
  const claimReceipt = await publicClient.waitForTransactionReceipt({ hash: claimHash });
  const claimTx = await publicClient.getTransaction({ hash: claimHash });

  const rows: Array<[string, bigint, bigint, bigint | undefined]> = [
    ["mint: first mint of a new human to a new address", firstMint.gasUsed, firstMint.execution, REFERENCE.firstMint],
    ["mint: repeat mint by the same human after 24 h", repeatMint.gasUsed, repeatMint.execution, REFERENCE.repeatMint],
    ["mint: second human to an address holding ORO", secondHuman.gasUsed, secondHuman.execution, REFERENCE.secondHumanToHolder],
    ["claim: referral voucher (fresh nonce word)", claimReceipt.gasUsed, claimReceipt.gasUsed - intrinsicGas(claimTx.input), undefined],
    ["previewClaim (eth_call, estimated)", previewGas, previewGas - intrinsicGas(encodeFunctionData({ abi: claims.abi, functionName: "previewClaim", args: [voucher.account, voucher.amount, voucher.nonce, signature] })), undefined],
  ];

  const pad = (value: string, width: number): string => value.padStart(width);
  console.log("\nGas table (solc 0.8.28, optimizer 200 runs, cancun; mint with a no-op World ID verifier)\n");
  console.log(`${"case".padEnd(52)}${pad("gasUsed", 10)}${pad("execution", 11)}${pad("reference", 11)}${pad("target", 9)}${pad("ratio", 8)}  verdict`);
  for (const [label, gasUsed, execution, reference] of rows) {
    if (reference === undefined) {
      console.log(`${label.padEnd(52)}${pad(gasUsed.toLocaleString("en-US"), 10)}${pad(execution.toLocaleString("en-US"), 11)}`);
      continue;
    }
    const target = (reference * TARGET_RATIO_PERCENT) / 100n;
    const ratio = Number((execution * 10_000n) / reference) / 100;
    console.log(
      `${label.padEnd(52)}${pad(gasUsed.toLocaleString("en-US"), 10)}${pad(execution.toLocaleString("en-US"), 11)}` +
        `${pad(reference.toLocaleString("en-US"), 11)}${pad(target.toLocaleString("en-US"), 9)}${pad(`${ratio}%`, 8)}  ${execution <= target ? "meets" : "misses"} the 0.9x target`,
    );
  }
  console.log("\nexecution = gasUsed - intrinsic (21,000 + calldata). previewClaim is estimated as a transaction (eth_estimateGas).");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
