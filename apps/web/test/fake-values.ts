import { buildDevProof, DEV_PROFILE, devEnrolmentProofs, devNullifierHash, idkitSessionIdOf, type ApiSchemas } from "@oro/clients";
import type { Address } from "viem";
import type { ApiRequestError, PendingEnrolmentText, Poll, ReferralEligibility, StreakData, SwapReward, TokenPrice } from "../src/lib/api";
import type { ClaimRefusal } from "../src/lib/claim-refusal";
import type { NotificationPermissionOutcome } from "../src/lib/world-app/request-permission";
import type { PendingEnrolment, WorldId3Verification, WorldId4Verification } from "../src/lib/world-app/verify";

// What the fakes answer with (fakes.ts): the test wallet and token, dev proofs, polls, and the options a test sets.
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

export const DEV_SETTINGS = { rpId: 0x7a69n, enrolmentAction: 1n };
/** The development chain's genesis cut-off (1 June 2026), which the fakes' chain reports. */
export const GENESIS_CUTOFF = 1_780_272_000;
/** The uniqueness proof's expiry floor when the app asks for 30 days (as the fakes' World App answers it). */
export const THIRTY_DAYS = 30 * DAY;

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
  /** The streak a bypass-cache read answers (the claim's new one), and how many such reads are refused first. */
  streakAfterClaim?: { streak: StreakData; refusals: ApiRequestError[] };
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


/** Records a call the app made to a fake, by name with its arguments (Fakes.calls). */
export type RecordCall = (name: string, ...args: unknown[]) => void;

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Seconds since the human's last mint (FakeOptions.lastMintedSecondsAgo, two days unless told); null: never minted. */
export function lastMintedAgo(options: FakeOptions): number | null {
  return options.lastMintedSecondsAgo === undefined ? 2 * DAY : options.lastMintedSecondsAgo;
}
