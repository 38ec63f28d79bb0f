import {
  buildDevProof,
  DEV_PROFILE,
  devEnrolmentProofs,
  devNullifierHash,
  devSessionProof,
  enrolmentSessionSignalOf,
  idkitSessionIdOf,
  moveSignalOf,
  oroWorldId4CallsAbi,
  referralClaimAbi,
  sessionIdOf,
  sessionSeedOf,
  type ApiSchemas,
} from "@oro/clients";
import { decodeFunctionData, encodeFunctionData, type Address } from "viem";
import { toReferralEarnings, type OroApi, type PendingEnrolmentText, type ReferralEligibility, type StreakData, type SwapReward, type TokenPrice } from "../src/lib/api";
import { ApiRequestError, type Poll } from "../src/lib/api";
import type { MintData } from "../src/lib/chain";
import type { ClaimRefusal } from "../src/lib/claim-refusal";
import type { Monitoring } from "../src/lib/monitoring";
import type { ChainService, Services, WalletService } from "../src/lib/services";
import { writeStored } from "../src/lib/storage";
import { WorldAppError } from "../src/lib/world-app/errors";
import { buildEnrolmentCall, buildMoveCall, buildSessionClaimCall } from "../src/lib/world-id-calls";
import type { NotificationPermissionOutcome } from "../src/lib/world-app/request-permission";
import type { PendingEnrolment, VerificationResult, WorldId3Verification, WorldId4Verification } from "../src/lib/world-app/verify";

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
/** The development chain's genesis cut-off (1 June 2026), which the fakes' chain reports. */
export const GENESIS_CUTOFF = 1_780_272_000;
/** The uniqueness proof's expiry floor when the app asks for 30 days (as the fakes' World App answers it). */
const THIRTY_DAYS = 30 * DAY;

/** A World ID 4.0 newcomer's enrolment as World App answers it: a new session and the uniqueness proof naming it. */
export function devPendingEnrolment(expiresAtMin = BigInt(Math.floor(Date.now() / 1000) + THIRTY_DAYS), kind: PendingEnrolment["kind"] = "enrol"): PendingEnrolment {
  const genesisMin = kind === "enrol" ? BigInt(GENESIS_CUTOFF) : 0n;
  const { sessionId, sessionSeed, uniqueness } = devEnrolmentProofs("test-human-4", USER, 1n, DEV_SETTINGS, expiresAtMin, genesisMin);
  return { kind, idkitSessionId: idkitSessionIdOf(sessionId, sessionSeed), uniqueness, worldId3: null };
}

/** A newcomer's verification: their pending enrolment, which the slide completes. */
export function devWorldId4Verification(): WorldId4Verification {
  const pending = devPendingEnrolment();
  return { version: "4.0", idkitSessionId: pending.idkitSessionId, pending };
}

/** An enrolled human's session on chain (enrolled on another device). */
export const KNOWN_SESSION = idkitSessionIdOf(0x5e55n, (1n << 248n) | 0x5eedn);

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
  /** The pending enrolment the API keeps for the wallet (a reinstall finds it there). */
  apiPending?: PendingEnrolmentText;
  /** The API's pending-enrolment reads fail this many times first (it did not answer). */
  apiPendingReadFailures?: number;
  /** World App answers the enrolment's 30-day request `credential_unavailable` (a credential expiring sooner). */
  credentialExpiresSoon?: boolean;
  /** Someone copies the next 4.0 transaction from the mempool and lands it first: the wallet's own then fails. */
  frontRun?: boolean;
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
  // The contract's session records: the enrolled sessions and each one's last expiry floor (its replay record).
  const sessionExpiry = new Map<bigint, bigint>();
  // An enrolled session's last proof asked an expiry floor an hour ahead (the contract takes any not too old).
  if (options.knownSession) sessionExpiry.set(sessionIdOf(options.knownSession), BigInt(nowSeconds() + 3600));
  let apiPending: PendingEnrolmentText | null = options.apiPending ?? null;
  let apiPendingReadFailures = options.apiPendingReadFailures ?? 0;
  let sessionRandom = 10n;
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
    getPendingEnrolment: (address) => {
      record("getPendingEnrolment", address);
      if (apiPendingReadFailures > 0) {
        apiPendingReadFailures -= 1;
        return Promise.reject(new ApiRequestError(503, "INTERNAL_ERROR", "the API did not answer"));
      }
      return Promise.resolve(apiPending);
    },
    keepPendingEnrolment: (address, pending) => {
      record("keepPendingEnrolment", address, pending);
      apiPending = structuredClone(pending);
      return Promise.resolve();
    },
    forgetPendingEnrolment: (address) => {
      record("forgetPendingEnrolment", address);
      apiPending = null;
      return Promise.resolve();
    },
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
      if (nullifierHash.version === "4.0") return Promise.resolve({ ...mint, lastExpiresAtMin: sessionExpiry.get(nullifierHash.sessionId) ?? 0n });
      return Promise.resolve({ ...mint, movedToWorldId4: moved });
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
          return decodeFunctionData({ abi: oroWorldId4CallsAbi, data: call.data });
        } catch {
          return null;
        }
      })();
      // The contract's checks the app relies on: one enrolment per session, a claim's expiry floor above the last.
      const session = worldId4Call?.functionName === "enrolInWorldId4Session" ? worldId4Call.args[2] : worldId4Call?.functionName === "moveToWorldId4Session" ? worldId4Call.args[6] : worldId4Call?.functionName === "claimWithSession" ? worldId4Call.args[1] : null;
      if (session && worldId4Call?.functionName !== "claimWithSession" && sessionExpiry.has(session.sessionId)) return Promise.reject(new WorldAppError("sendTransaction", "simulation_failed"));
      if (session && worldId4Call?.functionName === "claimWithSession" && !(session.expiresAtMin > (sessionExpiry.get(session.sessionId) ?? 2n ** 64n))) {
        return Promise.reject(new WorldAppError("sendTransaction", "simulation_failed"));
      }
      const landed = () => {
        if (session) sessionExpiry.set(session.sessionId, session.expiresAtMin);
        if (worldId4Call?.functionName === "moveToWorldId4Session") moved = true;
        else readsUntilConfirmed = options.mintConfirmsAfterReads ?? 1;
      };
      if (options.frontRun && session) {
        // A copy landed first; the wallet's own is then refused by World App's simulation.
        landed();
        return Promise.reject(new WorldAppError("sendTransaction", "simulation_failed"));
      }
      landed();
      return Promise.resolve({ id: worldId4Call?.functionName === "moveToWorldId4Session" ? "0xabd" : "0xabc", via: "world-app" as const });
    },
    // As the real wrapper (lib/world-app/verify.ts, tested with IDKit in test/verify.test.ts): what is known first;
    // then a 3.0 proof, or an enrolment whose uniqueness proof is kept before anything else; after
    // nullifier_replayed, what is known again.
    verifyHuman: async (signal, _sign, context): Promise<VerificationResult> => {
      record("verifyHuman", signal);
      const known = await context.known().catch(() => null);
      if (known) return known;
      record("worldAppPrompt", signal);
      if (options.verifyError) {
        const again = options.verifyError instanceof WorldAppError && options.verifyError.code === "nullifier_replayed" ? await context.known().catch(() => null) : null;
        if (again) return again;
        throw options.verifyError;
      }
      if (!options.worldId4) return devVerification();
      const now = nowSeconds();
      const pending = devPendingEnrolment(BigInt(options.credentialExpiresSoon ? now : now + THIRTY_DAYS));
      await context.keep(pending);
      return { version: "4.0", idkitSessionId: pending.idkitSessionId, pending };
    },
    worldId4Available: () => options.worldId4App ?? false,
    moveProofs: async (receiver, sign, chainNow, keep, pending) => {
      record("moveProofs", receiver, pending);
      let move = pending;
      if (!move) {
        await sign("session");
        await sign("enrolment");
        move = devPendingEnrolment(BigInt(chainNow + THIRTY_DAYS), "move");
        await keep(move);
      }
      if (move.worldId3) return move;
      await sign("claim");
      const worldId3 = devVerification();
      record("moveSignal", moveSignalOf(receiver, sessionIdOf(move.idkitSessionId)));
      const complete = { ...move, worldId3 };
      await keep(complete);
      return complete;
    },
    proveClaim: async (idkitSessionId, receiver, expiresAtMin, sign) => {
      record("proveClaim", idkitSessionId, expiresAtMin);
      await sign("session");
      sessionRandom += 1n;
      return devSessionProof(sessionIdOf(idkitSessionId), receiver, DEV_SETTINGS, expiresAtMin, sessionRandom);
    },
    proveEnrolment: async (pending, receiver, asMove, chainNow, sign) => {
      const movedFrom = asMove ? (pending.worldId3?.nullifierHash ?? 0n) : 0n;
      const signal = enrolmentSessionSignalOf(receiver, sessionSeedOf(pending.idkitSessionId), movedFrom, pending.uniqueness.nullifier);
      record("proveEnrolment", pending.idkitSessionId, { signal, genesisMin: pending.uniqueness.credentialGenesisIssuedAtMin, expiresAtMin: BigInt(chainNow) });
      await sign("session");
      sessionRandom += 1n;
      return devSessionProof(sessionIdOf(pending.idkitSessionId), receiver, DEV_SETTINGS, BigInt(chainNow), sessionRandom, pending.uniqueness.credentialGenesisIssuedAtMin, signal);
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
