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

export interface ApiOptions {
  baseUrl: string;
  /** The session's bearer token, when signed in. */
  token: () => string | null;
}

/**
 * Builds the API from the generated client. TODO(api-client): apps/api has not emitted
 * packages/clients/src/generated/api.ts yet; each method below becomes one call of that client.
 */
export function createOroApi(_options: ApiOptions): OroApi {
  const notWired = (endpoint: string) => () => Promise.reject(new ApiNotWiredError(endpoint));
  return {
    getSignInNonce: notWired("GET /api/auth/nonce"),
    signIn: notWired("POST /api/auth/siwe"),
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
