import { referralClaimAbi, sessionIdOf } from "@oro/clients";
import { encodeFunctionData, type Address } from "viem";
import type { MintData } from "../src/lib/chain";
import type { ChainService } from "../src/lib/services";
import { buildEnrolmentCall, buildMoveCall, buildSessionClaimCall } from "../src/lib/world-id-calls";
import { DAY, GENESIS_CUTOFF, HALF_ORO, lastMintedAgo, nowSeconds, REFERRAL_CLAIM, TOKEN, type FakeOptions, type RecordCall } from "./fake-values";

/** What the fakes' chain holds, which the wallet's transactions change (fake-wallet.ts). */
export interface FakeChainState {
  mint: MintData;
  /** After a mint is sent, how many reads until it shows (null: none is on its way). */
  readsUntilConfirmed: number | null;
  moved: boolean;
  /** The contract's session records: the enrolled sessions and each one's last expiry floor (its replay record). */
  sessionExpiry: Map<bigint, bigint>;
  usedVouchers: Set<string>;
  /** Voucher claims sent, by nonce: how many previews until each shows on chain. */
  pendingVouchers: Map<string, number>;
}

export function fakeChainState(options: FakeOptions): FakeChainState {
  const lastAgo = lastMintedAgo(options);
  const sessionExpiry = new Map<bigint, bigint>();
  // An enrolled session's last proof asked an expiry floor an hour ahead (the contract takes any not too old).
  if (options.knownSession) sessionExpiry.set(sessionIdOf(options.knownSession), BigInt(nowSeconds() + 3600));
  return {
    mint: { lastMintedAt: lastAgo === null ? 0n : BigInt(nowSeconds() - lastAgo), numOfMints: lastAgo === null ? 0n : 3n },
    readsUntilConfirmed: null,
    moved: false,
    sessionExpiry,
    usedVouchers: new Set(options.claimedVoucherNonces ?? []),
    pendingVouchers: new Map(),
  };
}

/** The chain's reads and the calls the app builds, over `state`. */
export function fakeChain(options: FakeOptions, state: FakeChainState, record: RecordCall): ChainService {
  return {
    tokenAddress: () => TOKEN,
    readMintData: (nullifierHash) => {
      record("readMintData", nullifierHash);
      if (options.mintDataFails) return Promise.reject(new Error("HTTP request failed"));
      if (state.readsUntilConfirmed !== null) {
        state.readsUntilConfirmed -= 1;
        if (state.readsUntilConfirmed <= 0) {
          state.mint = { lastMintedAt: BigInt(nowSeconds()), numOfMints: state.mint.numOfMints + 1n };
          state.readsUntilConfirmed = null;
        }
      }
      if (nullifierHash.version === "4.0") return Promise.resolve({ ...state.mint, lastExpiresAtMin: state.sessionExpiry.get(nullifierHash.sessionId) ?? 0n });
      return Promise.resolve({ ...state.mint, movedToWorldId4: state.moved });
    },
    readWaitBetweenMints: () => Promise.resolve(BigInt(DAY)),
    readWorldIdSettings: () => Promise.resolve({ worldId3Closed: options.worldId3Closed ?? false, genesisCutoff: GENESIS_CUTOFF, chainNow: nowSeconds() }),
    // The real encoders of the World ID 4.0 calls (the app's own module).
    buildEnrolmentCall: (pending, receiver, session) => Promise.resolve(buildEnrolmentCall(pending, receiver, session)),
    buildMoveCall: (pending, receiver, session) => Promise.resolve(buildMoveCall(pending, receiver, session)),
    buildSessionClaimCall: (receiver, session) => Promise.resolve(buildSessionClaimCall(receiver, session)),
    explainRefusal: (call, from) => (record("explainRefusal", call, from), Promise.resolve(options.claimRefusal ?? null)),
    readAmountPerMint: () => Promise.resolve(HALF_ORO),
    readTotalSupply: () => (options.totalSupplyWei instanceof Error ? Promise.reject(options.totalSupplyWei) : Promise.resolve(options.totalSupplyWei ?? 1_234_567_500_000_000_000_000_000n)),
    readOroBalance: () => {
      const balance = options.balanceWei ?? 12_340_000_000_000_000_000n;
      return balance instanceof Error ? Promise.reject(balance) : Promise.resolve(balance);
    },
    buildMintCall: (verification, receiver) => {
      return {
      to: TOKEN,
      data: encodeFunctionData({
        abi: [{ type: "function", name: "mint", stateMutability: "nonpayable", inputs: [{ type: "uint256" }, { type: "uint256" }, { type: "uint256[8]" }, { type: "address" }], outputs: [] }],
        functionName: "mint",
        args: [verification.merkleRoot, verification.nullifierHash, verification.proof, receiver],
      }),
      };
    },
    buildVoucherClaimCall: (claimable) =>
      Promise.resolve({
        to: REFERRAL_CLAIM,
        data: encodeFunctionData({
          abi: referralClaimAbi,
          functionName: "claim",
          args: [
            { account: claimable.message.account as Address, amount: BigInt(claimable.message.amount), nonce: BigInt(claimable.message.nonce) },
            claimable.signature as `0x${string}`,
          ],
        }),
      }),
    previewVoucherClaim: (claimable) => {
      const nonce = claimable.message.nonce;
      record("previewVoucherClaim", nonce);
      const left = state.pendingVouchers.get(nonce);
      if (left !== undefined) {
        if (left <= 1) {
          state.pendingVouchers.delete(nonce);
          state.usedVouchers.add(nonce);
        } else state.pendingVouchers.set(nonce, left - 1);
      }
      return Promise.resolve({ wasClaimed: state.usedVouchers.has(nonce), validSignature: claimable.signature !== "0xbad" });
    },
  };
}
