import { createApiClient, twoLetterCodeOf, type ApiError } from "@oro/clients";
import type { Address } from "viem";
import type { SignedWorldIdRequest } from "./world-app/verify";

/**
 * The ORO API as the web app uses it: the one module through which every server call goes (spec section 7).
 * Its implementation is built on the typed client that apps/api generates into @oro/clients (`createApiClient`);
 * the session's bearer token goes with every call, which the private routes (email, swap reward, reminder,
 * World ID request) require.
 */
export interface SignInNonce {
  nonce: string;
  statement: string;
}

export interface SiweSignIn {
  message: string;
  signature: string;
  address: Address;
  username?: string;
}

export interface ApiSession {
  token: string;
  expiresAt: string;
  user: { userId: string; address: string; username: string | null };
}

/** The streak answer; the spec names only currentStreak, the API adds the rest. */
export interface StreakData {
  currentStreak: number;
  longestStreak?: number;
}

export interface TokenPrice {
  priceUsd: number;
  percentChange24hr: number;
}

/** Swap reward status values the app acts on; the API may add others (they count as claimable). */
export const SWAP_REWARD_STATUSES = { ineligible: "Ineligible", eligible: "Eligible", claimed: "Claimed" } as const;

export interface SwapReward {
  rewardStatus: string;
  totalSwapVolumeUsd: number;
}

export interface OroApi {
  getSignInNonce(): Promise<SignInNonce>;
  signIn(body: SiweSignIn): Promise<ApiSession>;
  getCurrentStreak(userAddress: Address, options: { bypassCache: boolean }): Promise<StreakData>;
  clearStreakCache(userAddress: Address): Promise<void>;
  setNotificationLocale(userAddress: Address, locale: string): Promise<void>;
  scheduleClaimReminder(userAddress: Address, locale: string): Promise<void>;
  getIsInUS(userAddress: Address): Promise<boolean>;
  getSwapReward(userAddress: Address): Promise<SwapReward>;
  submitEmail(userAddress: Address, email: string): Promise<void>;
  /** Whether the user has already given an email (the post-claim form then stays hidden). */
  getEmailSubmitted(userAddress: Address): Promise<boolean>;
  /** Keyed by lower-case token address; an unknown token is absent. */
  getTokenPrices(tokenAddresses: readonly Address[]): Promise<Record<string, TokenPrice>>;
  getWorldIdRequest(userAddress: Address): Promise<SignedWorldIdRequest>;
}

/** A non-2xx answer of the API, with its stable error code (the `error` field of ErrorResponse). */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
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
  );
}

/**
 * The app's language as the two-letter code the notification calls send (spec section 7): Filipino ('fil',
 * which has no two-letter code of its own) is sent as Tagalog's 'tl', which the API stores as 'fil'; anything
 * else is 'en'. Both set_locale and oro_claim send this same value. The mapping lives in @oro/clients.
 */
export function toApiLocale(language: string | undefined): string {
  return twoLetterCodeOf(language);
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
      const { rewardStatus, totalSwapVolumeUsd } = unwrap(await client.GET("/api/user/uno_rewards", { params: { query: { userAddress } } }));
      return { rewardStatus, totalSwapVolumeUsd };
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
    async getWorldIdRequest(userAddress) {
      const { rp_id, nonce, created_at, expires_at, signature } = unwrap(await client.POST("/api/world-id/request", { params: { query: { userAddress } } }));
      return { rp_id, nonce, created_at, expires_at, signature };
    },
  };
}
