import { buildDevProof, DEV_PROFILE, devEnrolmentProofs, devNullifierHash, devSessionProof, idkitSessionIdOf, oroWorldId4CallsAbi, referralClaimAbi, type ApiSchemas } from "@oro/clients";
import { decodeFunctionData, encodeFunctionData, type Address } from "viem";
import { toReferralEarnings, type OroApi, type ReferralEligibility, type StreakData, type SwapReward, type TokenPrice } from "../src/lib/api";
import { ApiRequestError, type Poll } from "../src/lib/api";
import type { MintData } from "../src/lib/chain";
import type { ClaimRefusal } from "../src/lib/claim-refusal";
import type { Monitoring } from "../src/lib/monitoring";
import type { ChainService, Services, WalletService } from "../src/lib/services";
import { writeStored } from "../src/lib/storage";
import { buildMoveCall, buildWorldId4Call, decodeEnrolment, encodeEnrolment } from "../src/lib/world-id-calls";
import type { NotificationPermissionOutcome } from "../src/lib/world-app/request-permission";
import type { WorldId3Verification, WorldId4Verification } from "../src/lib/world-app/verify";

/** Test doubles for the app's services: what a test does not set answers like a healthy local stack. */
export const USER: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
export const TOKEN: Address = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
export const HALF_ORO = 500_000_000_000_000_000n;
export const DAY = 86_400;
/** The ReferralClaim contract of the fakes. */
export const REFERRAL_CLAIM: Address = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9";
export const OWN_CODE = "MYC0DE22";

export function devVerification(): WorldId3Verification {
  const { root, nullifierHash, proof } = buildDevProof({
    receiver: USER,
    nullifierHash: devNullifierHash("test-human"),
    appId: DEV_PROFILE.worldAppId,
    action: "claim-tokens-action",
  });
  return { version: "3.0", merkleRoot: root, nullifierHash, proof: proof };
}

const DEV_SETTINGS = { rpId: 0x7a69n, enrolmentAction: 1n };

/** A World ID 4.0 newcomer's enrolment (a session and its proofs), as World App would answer it. */
export function devWorldId4Verification(): WorldId4Verification {
  const { sessionId, sessionSeed, uniqueness, session } = devEnrolmentProofs("test-human-4", USER, 1n, DEV_SETTINGS, 1_800_000_000n, 0n);
  return { version: "4.0", idkitSessionId: idkitSessionIdOf(sessionId, sessionSeed), enrolment: encodeEnrolment({ uniqueness, session }) };
}

export const DEFAULT_POLLS: Poll[] = [
  {
    id: "7d0c3c5e-1f7a-4b59-9a53-2f7f1e0b6a01",
    question: "Which partner app should ORO add next?",
    status: "open",
    options: [
      { id: "2b9a6c57-58b4-4c8e-a2a5-5c1f3a6e9d01", label: "A game", votes: 12 },
      { id: "2b9a6c57-58b4-4c8e-a2a5-5c1f3a6e9d02", label: "A savings app", votes: 6 },
      { id: "2b9a6c57-58b4-4c8e-a2a5-5c1f3a6e9d03", label: "A news app", votes: 2 },
    ],
    totalVotes: 20,
    myVote: null,
  },
  {
    id: "7d0c3c5e-1f7a-4b59-9a53-2f7f1e0b6a02",
    question: "Should the daily claim come with a reminder?",
    status: "closed",
    options: [
      { id: "2b9a6c57-58b4-4c8e-a2a5-5c1f3a6e9d11", label: "Yes", votes: 30 },
      { id: "2b9a6c57-58b4-4c8e-a2a5-5c1f3a6e9d12", label: "No", votes: 10 },
    ],
    totalVotes: 40,
    myVote: "2b9a6c57-58b4-4c8e-a2a5-5c1f3a6e9d11",
  },
];

export interface FakeOptions {
  /** What the API says the sharer earns per invite (default 1 ORO). */
  referrerRewardWei?: bigint;
  /** Seconds since the last mint (ready when >= 1 day); null when the human never minted. */
  lastMintedSecondsAgo?: number | null;
  mintDataFails?: boolean;
  /** After the mint is sent, how many reads until it shows on chain (Infinity: never). */
  mintConfirmsAfterReads?: number;
  sendTransactionError?: Error;
  /** What the contract names when the failed mint is simulated again (default: nothing, the network's trouble). */
  claimRefusal?: ClaimRefusal | null;
  streak?: StreakData | Error;
  balanceWei?: bigint | Error;
  price?: TokenPrice | null;
  swapReward?: SwapReward;
  /** What the API answers to GET /api/user/email (default: not submitted). */
  emailSubmitted?: boolean;
  notificationsAvailable?: boolean;
  permissionOutcome?: NotificationPermissionOutcome;
  verifyError?: Error;
  /** The human is a World ID 4.0 newcomer: verifying enrols them. */
  worldId4?: boolean;
  /** World App announces World ID 4.0 (verify v2): a 3.0 human is invited to move. */
  worldId4App?: boolean;
  /** The owner closed World ID 3.0. */
  worldId3Closed?: boolean;
  /** The 4.0 session the API says the chain records for this wallet (enrolled on another device). */
  knownSession?: `session_${string}`;
  totalSupplyWei?: bigint | Error;
  holders?: number | Error;
  /** The polls the API lists (votes change them in place); default: one open and one closed poll. */
  polls?: Poll[];
  /** An error code the next votes fail with (POLL_CLOSED, OPTION_NOT_FOUND, …). */
  voteError?: string;
  /** The user's own invite code (or its failure). */
  referralCode?: string | Error;
  eligibility?: ReferralEligibility | Error;
  /** The API's refusal of an invite (its error code); default: accepted, referrer 'bob'. */
  acceptError?: string;
  signMessageError?: Error;
  /** The raw oro-earned answer (read through the app's own parser), or its failure; a function answers each page by its cursor. */
  earnings?: ApiSchemas["OroEarned"] | Error | ((cursor: string | undefined) => ApiSchemas["OroEarned"] | Error);
  /** Voucher nonces already used on chain. */
  claimedVoucherNonces?: string[];
  /** After a voucher claim is sent, how many previews until it shows on chain (Infinity: never). */
  voucherConfirmsAfterReads?: number;
  /** The wallet answers a voucher claim without a transaction id. */
  voucherClaimWithoutId?: boolean;
}

export interface Fakes {
  services: Services;
  calls: { name: string; args: unknown[] }[];
  events: string[];
  opened: string[];
}

export function createFakes(options: FakeOptions = {}): Fakes {
  const calls: Fakes["calls"] = [];
  const events: string[] = [];
  const opened: string[] = [];
  const record = (name: string, ...args: unknown[]) => calls.push({ name, args });
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const lastAgo = options.lastMintedSecondsAgo === undefined ? 2 * DAY : options.lastMintedSecondsAgo;
  let moved = false;
  let mint: MintData = {
    lastMintedAt: lastAgo === null ? 0n : BigInt(nowSeconds() - lastAgo),
    numOfMints: lastAgo === null ? 0n : 3n,
  };
  let readsUntilConfirmed: number | null = null;
  const polls: Poll[] = structuredClone(options.polls ?? DEFAULT_POLLS);
  const usedVouchers = new Set(options.claimedVoucherNonces ?? []);
  const pendingVouchers = new Map<string, number>();

  const api: OroApi = {
    getSignInNonce: () => (record("getSignInNonce"), Promise.resolve({ nonce: "abcdef123456", statement: "Claim ORO daily on the chain." })),
    signIn: (body) => {
      record("signIn", body);
      return Promise.resolve({ token: "session-token", expiresAt: new Date(Date.now() + DAY * 1000).toISOString(), user: { userId: "u1", address: body.address, username: "alice" } });
    },
    getCurrentStreak: (address, opts) => {
      record("getCurrentStreak", address, opts);
      const streak = options.streak ?? { currentStreak: 4 };
      return streak instanceof Error ? Promise.reject(streak) : Promise.resolve(streak);
    },
    clearStreakCache: (address) => (record("clearStreakCache", address), Promise.resolve()),
    setNotificationLocale: (address, locale) => (record("setNotificationLocale", address, locale), Promise.resolve()),
    scheduleClaimReminder: (address, locale) => (record("scheduleClaimReminder", address, locale), Promise.resolve()),
    getIsInUS: () => Promise.resolve(false),
    getSwapRewardTerms: () => (record("getSwapRewardTerms"), Promise.resolve({ minSwapVolumeUsd: options.swapReward?.minSwapVolumeUsd ?? 5 })),
    getSwapReward: (address) => (record("getSwapReward", address), Promise.resolve(options.swapReward ?? { rewardStatus: "Eligible", totalSwapVolumeUsd: 12.5, minSwapVolumeUsd: 5 })),
    submitEmail: (address, email) => (record("submitEmail", address, email), Promise.resolve()),
    getEmailSubmitted: (address) => (record("getEmailSubmitted", address), Promise.resolve(options.emailSubmitted ?? false)),
    getTokenPrices: (tokens) => {
      record("getTokenPrices", tokens);
      const price = options.price === undefined ? { priceUsd: 0.0234, percentChange24hr: 3.4 } : options.price;
      return Promise.resolve(price ? { [TOKEN.toLowerCase()]: price } : {});
    },
    getWorldIdRequest: (_address, kind) => {
      record("getWorldIdRequest", kind);
      return Promise.resolve({ rp_id: "rp_test", nonce: "n", created_at: 0, expires_at: 1, signature: "0x" });
    },
    getWorldIdStatus: () => Promise.resolve({ idkitSessionId: options.knownSession ?? null, movedToWorldId4: false }),
    getTokenStats: () => {
      record("getTokenStats");
      const holders = options.holders ?? 48_213;
      return holders instanceof Error ? Promise.reject(holders) : Promise.resolve({ holders, stale: false });
    },
    getPolls: (language) => (record("getPolls", language), Promise.resolve(structuredClone(polls))),
    votePoll: (address, pollId, optionId, language) => {
      record("votePoll", address, pollId, optionId, language);
      if (options.voteError) return Promise.reject(new ApiRequestError(409, options.voteError, options.voteError));
      const poll = polls.find((each) => each.id === pollId);
      if (!poll) return Promise.reject(new ApiRequestError(404, "POLL_NOT_FOUND", "no such poll"));
      if (poll.status === "closed") return Promise.reject(new ApiRequestError(409, "POLL_CLOSED", "the poll is closed"));
      const option = poll.options.find((each) => each.id === optionId);
      if (!option) return Promise.reject(new ApiRequestError(400, "OPTION_NOT_FOUND", "no such option"));
      const previous = poll.options.find((each) => each.id === poll.myVote);
      if (previous) previous.votes -= 1;
      else poll.totalVotes += 1;
      option.votes += 1;
      poll.myVote = optionId;
      return Promise.resolve(structuredClone(poll));
    },
    getReferralCode: (address) => {
      record("getReferralCode", address);
      const code = options.referralCode ?? OWN_CODE;
      return code instanceof Error ? Promise.reject(code) : Promise.resolve(code);
    },
    getReferralEligibility: (address) => {
      record("getReferralEligibility", address);
      // Like the API: a human who has minted may no longer accept a code.
      const answer =
        options.eligibility ??
        (lastAgo === null
          ? { eligible: true, reason: "NEVER_CLAIMED", referralApplied: false, referrerUsername: null }
          : { eligible: false, reason: "ALREADY_CLAIMED", referralApplied: false, referrerUsername: null });
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    getReferralProgramme: () => (record("getReferralProgramme"), Promise.resolve({ referrerRewardWei: options.referrerRewardWei ?? 10n ** 18n, refereeRewardWei: 5n * 10n ** 17n })),
    getReferralNonce: (address) => (record("getReferralNonce", address), Promise.resolve("InviteNonce1234")),
    acceptReferral: (address, input) => {
      record("acceptReferral", address, input);
      if (options.acceptError) return Promise.reject(new ApiRequestError(400, options.acceptError, `Referral refused: ${options.acceptError}`));
      return Promise.resolve({
        referral: { id: "r1", referralCode: input.referralCode, status: "pending" },
        referralUser: { userId: "u2", username: "bob" },
      });
    },
    getReferralEarnings: (address, opts) => {
      record("getReferralEarnings", address, opts);
      const given = typeof options.earnings === "function" ? options.earnings(opts.cursor) : options.earnings;
      const answer = given ?? { totalOroEarnedWei: "0", usersReferred: [], rewardForBeingReferee: null, referredByUsername: null, refereeRewardPending: false, usersReferredCount: 0, nextCursor: null };
      if (answer instanceof Error) return Promise.reject(answer);
      try {
        return Promise.resolve(toReferralEarnings(answer));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };

  const chain: ChainService = {
    tokenAddress: () => TOKEN,
    readMintData: (nullifierHash) => {
      record("readMintData", nullifierHash);
      if (options.mintDataFails) return Promise.reject(new Error("HTTP request failed"));
      if (readsUntilConfirmed !== null) {
        readsUntilConfirmed -= 1;
        if (readsUntilConfirmed <= 0) {
          mint = { lastMintedAt: BigInt(nowSeconds()), numOfMints: mint.numOfMints + 1n };
          readsUntilConfirmed = null;
        }
      }
      return Promise.resolve({ ...mint, movedToWorldId4: moved });
    },
    readWaitBetweenMints: () => Promise.resolve(BigInt(DAY)),
    readWorldIdSettings: () => Promise.resolve({ worldId3Closed: options.worldId3Closed ?? false, genesisCutoff: 1_780_272_000, chainNow: nowSeconds() }),
    // The real encoders of the World ID 4.0 calls (the app's own module).
    buildMoveCall: (proofs, receiver) => Promise.resolve(buildMoveCall(proofs, receiver)),
    buildWorldId4Call: (verification, receiver, sessionProof) => Promise.resolve(buildWorldId4Call(verification, receiver, sessionProof)),
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
      const left = pendingVouchers.get(nonce);
      if (left !== undefined) {
        if (left <= 1) {
          pendingVouchers.delete(nonce);
          usedVouchers.add(nonce);
        } else pendingVouchers.set(nonce, left - 1);
      }
      return Promise.resolve({ wasClaimed: usedVouchers.has(nonce), validSignature: claimable.signature !== "0xbad" });
    },
  };

  let permissionAsked = false;
  const wallet: WalletService = {
    isInWorldApp: () => true,
    notificationsAvailable: () => options.notificationsAvailable ?? true,
    walletAuth: (request) => {
      record("walletAuth", request);
      return Promise.resolve({ address: USER, message: `sign in ${request.nonce}`, signature: "0x1234" });
    },
    sendTransaction: (call) => {
      record("sendTransaction", call);
      if (options.sendTransactionError) return Promise.reject(options.sendTransactionError);
      if (call.to === REFERRAL_CLAIM) {
        const { args } = decodeFunctionData({ abi: referralClaimAbi, data: call.data });
        const [voucher] = args as unknown as [{ nonce: bigint }];
        pendingVouchers.set(voucher.nonce.toString(), options.voucherConfirmsAfterReads ?? 1);
        return Promise.resolve({ id: options.voucherClaimWithoutId ? ("" as `0x${string}`) : ("0xc1a1" as const), via: "world-app" as const });
      }
      const worldId4Call = (() => {
        try {
          return decodeFunctionData({ abi: oroWorldId4CallsAbi, data: call.data }).functionName;
        } catch {
          return null;
        }
      })();
      if (worldId4Call === "moveToWorldId4Session") {
        moved = true;
        return Promise.resolve({ id: "0xabd", via: "world-app" as const });
      }
      readsUntilConfirmed = options.mintConfirmsAfterReads ?? 1;
      return Promise.resolve({ id: "0xabc", via: "world-app" as const });
    },
    verifyHuman: async (signal, _sign, context) => {
      record("verifyHuman", signal);
      // As the real wrapper: a session the chain records for the human needs no prompt.
      const known = await context.knownSession().catch(() => null);
      if (known) return { version: "4.0", idkitSessionId: known, enrolment: null };
      record("worldAppPrompt", signal);
      if (options.verifyError) throw options.verifyError;
      return options.worldId4 ? devWorldId4Verification() : devVerification();
    },
    worldId4Available: () => options.worldId4App ?? false,
    moveProofs: async (receiver, sign) => {
      record("moveProofs", receiver);
      await sign("session");
      await sign("enrolment");
      await sign("claim");
      const { idkitSessionId, enrolment } = devWorldId4Verification();
      if (!enrolment) throw new Error("no enrolment");
      return { idkitSessionId, enrolment: decodeEnrolment(enrolment), worldId3: devVerification() };
    },
    proveSession: async (idkitSessionId, receiver, sign) => {
      record("proveSession", idkitSessionId);
      await sign("session");
      const sessionId = BigInt(`0x${idkitSessionId.slice(8, 72)}`);
      return devSessionProof(sessionId, receiver, DEV_SETTINGS, BigInt(nowSeconds()), 2n);
    },
    signMessage: (message) => {
      record("signMessage", message);
      return options.signMessageError ? Promise.reject(options.signMessageError) : Promise.resolve({ address: USER, signature: "0x5167" as const });
    },
    share: (content) => (record("share", content), Promise.resolve()),
    requestNotificationPermission: () => {
      record("requestNotificationPermission");
      if (permissionAsked) return Promise.resolve("already_requested" as const);
      permissionAsked = true;
      return Promise.resolve(options.permissionOutcome ?? "granted");
    },
    getPermissions: () => Promise.resolve({ notifications: false }),
    getUsername: () => Promise.resolve("alice"),
    openUrl: (url) => {
      opened.push(url);
    },
    haptic: (moment) => record("haptic", moment),
  };

  const monitoring: Monitoring = {
    event: (name, properties) => {
      events.push(name);
      record(`event:${name}`, properties);
    },
    analyticsAllowed: () => true,
  };
  return { services: { api, chain, wallet, monitoring }, calls, events, opened };
}

/** Puts a signed-in session (and optionally a verification) in storage, as after sign-in and verify. */
export function seedSignedIn({ verified }: { verified: boolean }): void {
  writeStored("session", { address: USER, username: "alice", token: "t", expiresAt: new Date(Date.now() + 7 * DAY * 1000).toISOString() });
  if (verified) {
    const verification = devVerification();
    writeStored("verification", {
      address: USER,
      merkleRoot: verification.merkleRoot.toString(),
      nullifierHash: verification.nullifierHash.toString(),
      proof: verification.proof.map(String),
    });
  }
}
