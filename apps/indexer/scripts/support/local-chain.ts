import { startLocalChain as startChain, type Service } from "@oro/dev-stack";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getContract,
  http,
  type Address,
  type Hash,
  type PublicClient,
} from "viem";
import { hardhat } from "viem/chains";
import {
  buildDevProof,
  deployments,
  devEnrolmentProofs,
  devNullifierHash,
  devSessionProof,
  hashToField,
  moveSignalOf,
  oroAbi,
  referralClaimAbi,
  referralVoucherTypedData,
  rpIdOf,
  worldId4ActionOf,
} from "@oro/clients";
import { deploymentFor, type IndexedDeployment } from "../../src/lib/deployment";

/** Hardhat's unlocked development accounts, in order (#0 owns the contracts, #1 signs vouchers). */
export type DevAccounts = readonly Address[];

export interface LocalChain {
  rpcUrl: string;
  port: number;
  deployment: IndexedDeployment;
  publicClient: PublicClient;
  accounts: DevAccounts;
  service: Service;
  stop(): Promise<void>;
}

/**
 * Starts the contracts package's local chain (everything deployed) on a free port, through @oro/dev-stack.
 * `env` reaches the contracts' env.ts (for example ORO_WAIT_BETWEEN_MINTS).
 */
export async function startLocalChain(env: Record<string, string> = {}): Promise<LocalChain> {
  const chain = await startChain({ env });
  try {
    // cacheTime 0: a local chain moves by our own hand, so every read must see the newest block.
    const publicClient = createPublicClient({ chain: hardhat, transport: http(chain.rpcUrl), cacheTime: 0 });
    const accounts = await createWalletClient({ chain: hardhat, transport: http(chain.rpcUrl) }).getAddresses();
    return {
      rpcUrl: chain.rpcUrl,
      port: chain.port,
      deployment: deploymentFor(hardhat.id),
      publicClient,
      accounts,
      service: chain.service,
      stop: () => chain.stop(),
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

/** Owner, user and time-travel actions on a local chain, as the product's users and owner would take them. */
export function chainActions(chain: LocalChain) {
  const transport = http(chain.rpcUrl);
  const testClient = createTestClient({ chain: hardhat, mode: "hardhat", transport });
  const walletClient = createWalletClient({ chain: hardhat, transport });
  const { worldId } = deployments[hardhat.id];
  const worldId4Settings = { rpId: rpIdOf(worldId.rpId), enrolmentAction: worldId4ActionOf(worldId.enrolmentAction) };
  let sessionRandom = 0n;
  const oro = getContract({ address: chain.deployment.oro.address, abi: oroAbi, client: chain.publicClient });
  const claims = getContract({
    address: chain.deployment.referralClaim.address,
    abi: referralClaimAbi,
    client: chain.publicClient,
  });

  async function confirmed(hash: Hash) {
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }

  return {
    oro,
    claims,
    testClient,
    /** The next block gets exactly this timestamp (unix seconds). */
    async setNextBlockTimestamp(timestamp: number) {
      await testClient.setNextBlockTimestamp({ timestamp: BigInt(timestamp) });
    },
    /**
     * Mines empty blocks one `evm_mine` at a time. (`hardhat_mine` with a count reserves blocks whose
     * parentHash is zero, which Ponder's live sync takes for a reorg it cannot resolve.)
     */
    async mineEmptyBlocks(count: number) {
      for (let i = 0; i < count; i++) {
        const response = await fetch(chain.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "evm_mine", params: [] }),
        });
        if (!response.ok) throw new Error(`evm_mine answered ${response.status}`);
      }
    },
    async latestTimestamp(): Promise<number> {
      return Number((await chain.publicClient.getBlock()).timestamp);
    },
    /** The named development human mints to `receiver`, sent by the receiver (the proof binds it). */
    async mint(humanName: string, receiver: Address) {
      const { root, nullifierHash, proof } = buildDevProof({
        receiver,
        nullifierHash: devNullifierHash(humanName),
        appId: worldId.appId,
        action: worldId.action,
      });
      const hash = await walletClient.writeContract({
        account: receiver,
        address: oro.address,
        abi: oroAbi,
        functionName: "mint",
        args: [root, nullifierHash, proof, receiver],
      });
      return confirmed(hash);
    },
    /**
     * World ID 4.0: the named development human (verified after the cut-off unless `genesisMin` says otherwise)
     * enrols with a new session (seeded) and mints the first claim to `receiver`; returns the session id.
     */
    async enrol(humanName: string, receiver: Address, seed = 1n, genesisMin = BigInt(worldId.genesisCutoff)) {
      const now = BigInt(await this.latestTimestamp());
      const { sessionId, sessionSeed, uniqueness, session } = devEnrolmentProofs(humanName, receiver, seed, worldId4Settings, now, genesisMin);
      const hash = await walletClient.writeContract({
        account: receiver, address: oro.address, abi: oroAbi, functionName: "enrolInWorldId4Session", args: [receiver, sessionSeed, session, uniqueness],
      });
      await confirmed(hash);
      return sessionId;
    },
    /** A daily 4.0 claim with a fresh session proof. */
    async claimWithSession(sessionId: bigint, receiver: Address) {
      const now = BigInt(await this.latestTimestamp());
      sessionRandom += 1n;
      const hash = await walletClient.writeContract({
        account: receiver, address: oro.address, abi: oroAbi, functionName: "claimWithSession",
        args: [receiver, devSessionProof(sessionId, receiver, worldId4Settings, now, sessionRandom)],
      });
      return confirmed(hash);
    },
    /** The named 3.0 human moves to a new session of theirs (a 3.0 proof signalling the receiver and the session id). */
    async moveToWorldId4(humanName: string, receiver: Address, seed = 1n) {
      const now = BigInt(await this.latestTimestamp());
      const nullifierHash = devNullifierHash(humanName);
      const { sessionId, sessionSeed, uniqueness, session } = devEnrolmentProofs(humanName, receiver, seed, worldId4Settings, now, 0n, nullifierHash);
      const { root, proof } = buildDevProof({
        receiver, signalHash: hashToField(moveSignalOf(receiver, sessionId)), nullifierHash, appId: worldId.appId, action: worldId.action,
      });
      const hash = await walletClient.writeContract({
        account: receiver, address: oro.address, abi: oroAbi, functionName: "moveToWorldId4Session",
        args: [receiver, root, nullifierHash, sessionSeed, uniqueness, proof, session],
      });
      await confirmed(hash);
      return sessionId;
    },
    async transfer(from: Address, to: Address, amount: bigint) {
      const hash = await walletClient.writeContract({
        account: from,
        address: oro.address,
        abi: oroAbi,
        functionName: "transfer",
        args: [to, amount],
      });
      return confirmed(hash);
    },
    async setAmountPerMint(owner: Address, amount: bigint) {
      const hash = await walletClient.writeContract({
        account: owner,
        address: oro.address,
        abi: oroAbi,
        functionName: "setAmountPerMint",
        args: [amount],
      });
      return confirmed(hash);
    },
    async setWaitBetweenMints(owner: Address, seconds: number) {
      const hash = await walletClient.writeContract({
        account: owner,
        address: oro.address,
        abi: oroAbi,
        functionName: "setWaitBetweenMints",
        args: [BigInt(seconds)],
      });
      return confirmed(hash);
    },
    /**
     * The voucher signer (the node holds its development key, so it signs over JSON-RPC) signs a voucher,
     * and `submitter` claims it for `account`.
     */
    async claimVoucher(voucher: { account: Address; amount: bigint; nonce: bigint }, submitter: Address) {
      const signer = await claims.read.signer();
      const signature = await walletClient.signTypedData({
        account: signer,
        ...referralVoucherTypedData(hardhat.id, claims.address, voucher),
      });
      const hash = await walletClient.writeContract({
        account: submitter,
        address: claims.address,
        abi: referralClaimAbi,
        functionName: "claim",
        args: [voucher, signature],
      });
      return confirmed(hash);
    },
  };
}
