import { createApiClient, type ApiError } from "@oro/clients";
import type { Address } from "viem";
import type { SignedWorldIdRequest } from "./world-app/verify";

/**
 * The ORO API as the web app uses it: the one module through which every server call goes (spec section 7).
 * Its implementation is built on the typed client that apps/api generates into @oro/clients; until an
 * endpoint's client exists, that method fails with ApiNotWiredError (see `createOroApi`).
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
  /** Keyed by lower-case token address; an unknown token is absent. */
  getTokenPrices(tokenAddresses: readonly Address[]): Promise<Record<string, TokenPrice>>;
  getWorldIdRequest(userAddress: Address): Promise<SignedWorldIdRequest>;
}

/** A call whose generated client does not exist yet in @oro/clients. */
export class ApiNotWiredError extends Error {
  override readonly name = "ApiNotWiredError";
  constructor(readonly endpoint: string) {
    super(`${endpoint} is not available: its typed client is not generated yet`);
  }
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
 * The API on the generated client of @oro/clients (`createApiClient`). TODO(api-client): the endpoints of the
 * second API issue (streaks, notifications, user, erc20 token price, World ID request) are not in the generated
 * client yet; those methods fail with ApiNotWiredError until it is regenerated, then each becomes one call below.
 */
export function createOroApi(options: ApiOptions): OroApi {
  const client = createApiClient(options.baseUrl || window.location.origin, {
    token: options.token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const notWired = (endpoint: string) => () => Promise.reject(new ApiNotWiredError(endpoint));
  return {
    async getSignInNonce() {
      const { nonce, statement } = unwrap(await client.GET("/api/auth/nonce"));
      return { nonce, statement };
    },
    async signIn(body) {
      return unwrap(await client.POST("/api/auth/siwe", { body }));
    },
    getCurrentStreak: notWired("GET /api/streaks/current"),
    clearStreakCache: notWired("GET /api/streaks/clear-streak-cache"),
    setNotificationLocale: notWired("POST /api/notifications/set_locale"),
    scheduleClaimReminder: notWired("POST /api/notifications/oro_claim"),
    getIsInUS: notWired("GET /api/user/is-in-us"),
    getSwapReward: notWired("GET /api/user/uno_rewards"),
    submitEmail: notWired("POST /api/user/email"),
    getTokenPrices: notWired("GET /api/erc20/token-price"),
    getWorldIdRequest: notWired("POST /api/world-id/request"),
  };
}
