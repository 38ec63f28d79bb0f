import {
  createApiClient,
  PAYMENT_TYPES,
  REFERRAL_APP,
  twoLetterCodeOf,
  type ApiError,
  type ApiPaths,
  type ApiSchemas,
  type PaymentType,
  type WorldIdRequestKind,
} from "@oro/clients";
import type { Address } from "viem";
import type { RpContext } from "./world-app/verify";

/**
 * The ORO API as the web app uses it: the one module through which every server call goes (spec section 7).
 * Its implementation is built on the typed client that apps/api generates into @oro/clients (`createApiClient`);
 * the session's bearer token goes with every call, which the private routes (email, swap reward, reminder,
 * World ID request) require. Its types are the generated client's schemas, picked or converted (bigint wei, Date)
 * where the app needs it, never written again by hand.
 */

/** The request body of a route, as the generated client types it. */
type JsonBody<Route extends keyof ApiPaths> = ApiPaths[Route] extends { post: { requestBody?: { content: { "application/json": infer Body } } } } ? Body : never;

export type SignInNonce = Pick<ApiSchemas["SignInNonce"], "nonce" | "statement">;
export type SiweSignIn = JsonBody<"/api/auth/siwe">;
export type ApiSession = ApiSchemas["Session"];

/** The streak answer; the spec names only currentStreak, the API adds the rest. */
export type StreakData = Pick<ApiSchemas["Streak"], "currentStreak"> & Partial<Pick<ApiSchemas["Streak"], "longestStreak">>;

export type TokenPrice = ApiSchemas["TokenPrice"];

/** The swap reward's status, the swaps so far and the minimum that earns it (the API's setting), in USD. */
export type SwapReward = ApiSchemas["SwapReward"];
/** The swap reward's terms for anyone, signed in or not: the minimum that earns it (the API's setting), in USD. */
export type SwapRewardTerms = ApiSchemas["SwapRewardTerms"];
/** A pending World ID 4.0 enrolment or move as the API and the device keep it: its numbers as decimal text. */
export type PendingEnrolmentText = NonNullable<ApiSchemas["PendingEnrolment"]["pending"]>;

/** Whether the user may still accept an invite code, decided per human by the API (`GET /api/referrals/eligibility`). */
export type ReferralEligibility = ApiSchemas["ReferralEligibility"];
export type ReferralEligibilityReason = ReferralEligibility["reason"];
/** What the sharer and the invited person each earn, as bigint wei. */
export type ReferralProgramme = Record<keyof ApiSchemas["ReferralProgramme"], bigint>;

export class InvalidPaymentTypeError extends Error {
  override readonly name = "InvalidPaymentTypeError";
  constructor() {
    super("Invalid payment type");
  }
}

/** A voucher the user sends to `ReferralClaim.claim(voucher, signature)` themselves. */
export type ClaimableSignature = ApiSchemas["ClaimableSignature"];

/** One referral reward, with its amount as bigint wei and its date as a Date. */
export type ReferralReward = Omit<ApiSchemas["RefereeReward"], "paymentAmountWei" | "updatedAt" | "claimableSignature"> & {
  paymentAmountWei: bigint;
  updatedAt: Date;
  claimableSignature: ClaimableSignature | null;
};

export type ReferredUser = ReferralReward & Pick<ApiSchemas["ReferredUser"], "userId" | "username">;

/** One page of the earnings answer: the totals cover the whole history, usersReferred one page of invites (in the spec's order). */
export type ReferralEarnings = Omit<ApiSchemas["OroEarned"], "totalOroEarnedWei" | "usersReferred" | "rewardForBeingReferee"> & {
  totalOroEarnedWei: bigint;
  usersReferred: ReferredUser[];
  rewardForBeingReferee: ReferralReward | null;
};

export interface ReferralEarningsOptions {
  forceBustCache: boolean;
  /** The previous page's nextCursor; absent for the first page. */
  cursor?: string;
}

/** The invite code with the invite message's signature (empty when the wallet gave none) and its nonce. */
export type AcceptReferralInput = Pick<ApiPaths["/api/referrals/refer_with_signature"]["post"]["parameters"]["query"], "referralCode" | "signature" | "nonce">;

/** The accepted referral and the person who invited. */
export interface AcceptReferralResult {
  referral: Pick<ApiSchemas["AcceptedReferral"]["referral"], "id" | "referralCode" | "status">;
  referralUser: ApiSchemas["AcceptedReferral"]["referralUser"];
}

/** Unique holders from the indexer (through the API's cache); `stale` while the indexer is down. */
export type TokenStats = Pick<ApiSchemas["TokenStats"], "holders" | "stale">;

/** A poll in the user's language; `myVote` is the signed-in user's option, else null. */
export type Poll = Pick<ApiSchemas["Poll"], "id" | "question" | "status" | "options" | "totalVotes" | "myVote">;
export type PollOption = Poll["options"][number];

export interface OroApi {
  getSignInNonce(): Promise<SignInNonce>;
  signIn(body: SiweSignIn): Promise<ApiSession>;
  getCurrentStreak(userAddress: Address, options: { bypassCache: boolean }): Promise<StreakData>;
  clearStreakCache(userAddress: Address): Promise<void>;
  setNotificationLocale(userAddress: Address, locale: string): Promise<void>;
  scheduleClaimReminder(userAddress: Address, locale: string): Promise<void>;
  getIsInUS(userAddress: Address): Promise<boolean>;
  getSwapReward(userAddress: Address): Promise<SwapReward>;
  getSwapRewardTerms(): Promise<SwapRewardTerms>;
  submitEmail(userAddress: Address, email: string): Promise<void>;
  /** Whether the user has already given an email (the post-claim form then stays hidden). */
  getEmailSubmitted(userAddress: Address): Promise<boolean>;
  /** Keyed by lower-case token address; an unknown token is absent. */
  getTokenPrices(tokenAddresses: readonly Address[]): Promise<Record<string, TokenPrice>>;
  /** A signed IDKit request for the 3.0 claim action, the 4.0 enrolment action or a session proof. */
  getWorldIdRequest(userAddress: Address, kind: WorldIdRequestKind): Promise<RpContext>;
  /** The 4.0 session the chain records for this wallet's human (enrolled on another device), or null. */
  getWorldIdStatus(userAddress: Address): Promise<{ idkitSessionId: `session_${string}` | null; movedToWorldId4: boolean }>;
  /** The wallet's pending World ID 4.0 enrolment or move kept on the API (null: none, or it can no longer land). */
  getPendingEnrolment(userAddress: Address): Promise<PendingEnrolmentText | null>;
  /** Keeps it (one per wallet: it replaces the one kept before). */
  keepPendingEnrolment(userAddress: Address, pending: PendingEnrolmentText): Promise<void>;
  /** Forgets it: the chain shows it landed, or it can never land. */
  forgetPendingEnrolment(userAddress: Address): Promise<void>;
  getTokenStats(): Promise<TokenStats>;
  /** Open polls first, texts in `language` (en where a text has none). */
  getPolls(language: string): Promise<Poll[]>;
  /** Votes or changes the vote; POLL_CLOSED, OPTION_NOT_FOUND and the like come back as ApiRequestError. */
  votePoll(userAddress: Address, pollId: string, optionId: string, language: string): Promise<Poll>;
  /** The user's own invite code (8 characters, upper case). */
  getReferralCode(userAddress: Address): Promise<string>;
  getReferralEligibility(userAddress: Address): Promise<ReferralEligibility>;
  /** What the sharer and the invited person each earn (the API's settings). */
  getReferralProgramme(): Promise<ReferralProgramme>;
  /** A single-use nonce for the invite message the referee signs. */
  getReferralNonce(userAddress: Address): Promise<string>;
  /** Accepts an invite code; a refusal throws an ApiRequestError with the API's code, like every other call. */
  acceptReferral(userAddress: Address, input: AcceptReferralInput): Promise<AcceptReferralResult>;
  /** One page of what the user earned from invites (the first without a cursor). */
  getReferralEarnings(userAddress: Address, options: ReferralEarningsOptions): Promise<ReferralEarnings>;
}

/** A non-2xx answer of the API, with its stable error code (the `error` field of ErrorResponse). */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** How long the API asked the app to wait before asking again (its retry-after, on a 429 or a 503), if it did. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** A retry-after header in milliseconds: delay-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function retryAfterMsOf(header: string | null, now = Date.now()): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = /GMT$/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface ApiOptions {
  /** The API's origin; empty for this origin. */
  baseUrl: string;
  /** The session's bearer token, when signed in. */
  token: () => string | null;
  fetch?: typeof fetch;
}

/** openapi-fetch answers `{ data }` or `{ error }`; this turns the second into a thrown ApiRequestError. */
function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data;
  const error = result.error as Partial<ApiError> | undefined;
  throw new ApiRequestError(
    result.response.status,
    typeof error?.error === "string" ? error.error : "HTTP_ERROR",
    typeof error?.message === "string" ? error.message : `The API answered ${result.response.status}`,
    retryAfterMsOf(result.response.headers.get("retry-after")),
  );
}

/** A payment type the API's schema lists (PAYMENT_TYPES of @oro/clients); any other value is refused ('Invalid payment type'). */
function toPaymentType(value: unknown): PaymentType {
  if (!(PAYMENT_TYPES as readonly unknown[]).includes(value)) throw new InvalidPaymentTypeError();
  return value as PaymentType;
}

function toReward(reward: ApiSchemas["RefereeReward"]): ReferralReward {
  return {
    paymentType: toPaymentType(reward.paymentType),
    paymentAmountWei: BigInt(reward.paymentAmountWei),
    hasClaimed: reward.hasClaimed,
    updatedAt: new Date(reward.updatedAt),
    claimableSignature: reward.claimableSignature ?? null,
  };
}

/** The earnings answer with amounts as bigint wei and dates as Date; an unknown payment type throws. */
export function toReferralEarnings(answer: ApiSchemas["OroEarned"]): ReferralEarnings {
  return {
    totalOroEarnedWei: BigInt(answer.totalOroEarnedWei),
    usersReferred: answer.usersReferred.map((entry) => ({ userId: entry.userId, username: entry.username, ...toReward(entry) })),
    rewardForBeingReferee: answer.rewardForBeingReferee ? toReward(answer.rewardForBeingReferee) : null,
    referredByUsername: answer.referredByUsername,
    refereeRewardPending: answer.refereeRewardPending,
    usersReferredCount: answer.usersReferredCount,
    nextCursor: answer.nextCursor,
  };
}

/**
 * The app's language as the two-letter code the notification calls send (spec section 7): Filipino ('fil',
 * which has no two-letter code of its own) is sent as Tagalog's 'tl', which the API stores as 'fil'; anything
 * else is 'en'. Both set_locale and oro_claim send this same value. The mapping lives in @oro/clients.
 */
export function toApiLocale(language: string | undefined): string {
  return twoLetterCodeOf(language);
}

function toPoll({ id, question, status, options, totalVotes, myVote }: Poll): Poll {
  return { id, question, status, options: options.map(({ id: optionId, label, votes }) => ({ id: optionId, label, votes })), totalVotes, myVote };
}

/** The API on the generated client of @oro/clients (`createApiClient`): one call per method. */
export function createOroApi(options: ApiOptions): OroApi {
  const client = createApiClient(options.baseUrl || window.location.origin, {
    token: options.token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    async getSignInNonce() {
      const { nonce, statement } = unwrap(await client.GET("/api/auth/nonce"));
      return { nonce, statement };
    },
    async signIn(body) {
      return unwrap(await client.POST("/api/auth/siwe", { body }));
    },
    async getCurrentStreak(userAddress, { bypassCache }) {
      const query = bypassCache ? { userAddress, bypassCache: "true" as const } : { userAddress };
      const { currentStreak, longestStreak } = unwrap(await client.GET("/api/streaks/current", { params: { query } }));
      return { currentStreak, longestStreak };
    },
    async clearStreakCache(userAddress) {
      unwrap(await client.GET("/api/streaks/clear-streak-cache", { params: { query: { userAddress } } }));
    },
    async setNotificationLocale(userAddress, locale) {
      const query = { userAddress: userAddress.toLowerCase(), locale: toApiLocale(locale) };
      unwrap(await client.POST("/api/notifications/set_locale", { params: { query } }));
    },
    async scheduleClaimReminder(userAddress, locale) {
      const query = { userAddress: userAddress.toLowerCase(), locale: toApiLocale(locale) };
      unwrap(await client.POST("/api/notifications/oro_claim", { params: { query } }));
    },
    async getIsInUS(userAddress) {
      return unwrap(await client.GET("/api/user/is-in-us", { params: { query: { userAddress } } })).isInUS;
    },
    async getSwapReward(userAddress) {
      const { rewardStatus, totalSwapVolumeUsd, minSwapVolumeUsd } = unwrap(await client.GET("/api/user/uno_rewards", { params: { query: { userAddress } } }));
      return { rewardStatus, totalSwapVolumeUsd, minSwapVolumeUsd };
    },
    async getSwapRewardTerms() {
      const { minSwapVolumeUsd } = unwrap(await client.GET("/api/user/uno_rewards/terms"));
      return { minSwapVolumeUsd };
    },
    async submitEmail(userAddress, email) {
      unwrap(await client.POST("/api/user/email", { params: { query: { userAddress } }, body: { email } }));
    },
    async getEmailSubmitted(userAddress) {
      return unwrap(await client.GET("/api/user/email", { params: { query: { userAddress } } })).submitted;
    },
    async getTokenPrices(tokenAddresses) {
      const prices = unwrap(await client.GET("/api/erc20/token-price", { params: { query: { tokenAddresses: [...tokenAddresses] } } }));
      const byAddress: Record<string, TokenPrice> = {};
      for (const [token, { priceUsd, percentChange24hr }] of Object.entries(prices)) byAddress[token.toLowerCase()] = { priceUsd, percentChange24hr };
      return byAddress;
    },
    async getWorldIdRequest(userAddress, kind) {
      const { rp_id, nonce, created_at, expires_at, signature } = unwrap(await client.POST("/api/world-id/request", { params: { query: { userAddress, kind } } }));
      return { rp_id, nonce, created_at, expires_at, signature };
    },
    async getWorldIdStatus(userAddress) {
      const { session, movedToWorldId4 } = unwrap(await client.GET("/api/world-id/status", { params: { query: { userAddress } } }));
      return { idkitSessionId: session ? (session.idkitSessionId as `session_${string}`) : null, movedToWorldId4 };
    },
    async getPendingEnrolment(userAddress) {
      return unwrap(await client.GET("/api/world-id/pending-enrolment", { params: { query: { userAddress } } })).pending;
    },
    async keepPendingEnrolment(userAddress, pending) {
      unwrap(await client.PUT("/api/world-id/pending-enrolment", { params: { query: { userAddress } }, body: pending }));
    },
    async forgetPendingEnrolment(userAddress) {
      unwrap(await client.DELETE("/api/world-id/pending-enrolment", { params: { query: { userAddress } } }));
    },
    async getTokenStats() {
      const { holders, stale } = unwrap(await client.GET("/api/stats"));
      return { holders, stale };
    },
    async getPolls(language) {
      const { polls } = unwrap(await client.GET("/api/polls", { params: { query: { locale: language } } }));
      return polls.map(toPoll);
    },
    async votePoll(userAddress, pollId, optionId, language) {
      const { poll } = unwrap(
        await client.POST("/api/polls/{id}/vote", { params: { path: { id: pollId }, query: { userAddress, locale: language } }, body: { optionId } }),
      );
      return toPoll(poll);
    },
    async getReferralCode(userAddress) {
      const answer = unwrap(await client.GET("/api/referral_codes/for_user", { params: { query: { userAddress, app: REFERRAL_APP } } }));
      return answer.referralCode.referralCode;
    },
    async getReferralEligibility(userAddress) {
      const { eligible, reason, referralApplied, referrerUsername } = unwrap(
        await client.GET("/api/referrals/eligibility", { params: { query: { userAddress } } }),
      );
      return { eligible, reason, referralApplied, referrerUsername };
    },
    async getReferralProgramme() {
      const { referrerRewardWei, refereeRewardWei } = unwrap(await client.GET("/api/referrals/programme"));
      return { referrerRewardWei: BigInt(referrerRewardWei), refereeRewardWei: BigInt(refereeRewardWei) };
    },
    async getReferralNonce(userAddress) {
      return unwrap(await client.GET("/api/referrals/nonce", { params: { query: { userAddress } } })).nonce;
    },
    async acceptReferral(userAddress, { referralCode, signature, nonce }) {
      const query = { userAddress, referralCode, signature, nonce };
      const { referral, referralUser } = unwrap(await client.POST("/api/referrals/refer_with_signature", { params: { query } }));
      return {
        referral: { id: referral.id, referralCode: referral.referralCode, status: referral.status },
        referralUser: { userId: referralUser.userId, username: referralUser.username },
      };
    },
    async getReferralEarnings(userAddress, { forceBustCache, cursor }) {
      const query = { userAddress, forceBustCache: forceBustCache ? ("true" as const) : ("false" as const), ...(cursor === undefined ? {} : { cursor }) };
      return toReferralEarnings(unwrap(await client.GET("/api/referrals/oro-earned", { params: { query } })));
    },
  };
}
