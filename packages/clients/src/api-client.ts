import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import { apiErrorCodeValues, paymentTypeValues, swapRewardStatusValues, type components, type paths } from "./generated/api.js";

export type { components as ApiComponents, paths as ApiPaths } from "./generated/api.js";

/** The API's named schemas (request and response bodies), e.g. `ApiSchemas["OroEarned"]`. */
export type ApiSchemas = components["schemas"];

/** Every non-2xx answer of the API: a stable code, a message, and for invalid input the field and rule. */
export type ApiError = components["schemas"]["ErrorResponse"];

/** The stable code of an API error answer (`ApiError["error"]`): one of the API's list. */
export type ApiErrorCode = ApiError["error"];

/** Every code the API can answer, as its OpenAPI document lists them: a catalogue of messages can be checked against it. */
export const API_ERROR_CODES: readonly ApiErrorCode[] = apiErrorCodeValues;

export type SwapRewardStatus = ApiSchemas["SwapReward"]["rewardStatus"];
/** The swap reward's states, as the API answers them. */
export const SWAP_REWARD_STATUSES: readonly SwapRewardStatus[] = swapRewardStatusValues;

export type PaymentType = ApiSchemas["RefereeReward"]["paymentType"];
/** How a referral reward is paid (`claimable`: the user claims the voucher; `auto`: the payout worker sends it). */
export const PAYMENT_TYPES: readonly PaymentType[] = paymentTypeValues;

export interface ApiClientOptions {
  /** The session token from `POST /api/auth/siwe`, sent as a bearer token; a function is asked per request. */
  token?: string | (() => string | null | undefined);
  /** Cookies (the httpOnly session cookie) go with cross-origin requests unless told otherwise. */
  credentials?: "include" | "same-origin" | "omit";
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** A fetch implementation (defaults to the global one). */
  fetch?: ClientOptions["fetch"];
}

export type ApiClient = Client<paths>;

/**
 * The typed client of the ORO API. `baseUrl` is the API's origin (paths start with /api), e.g.
 * `createApiClient("https://api.oro.example").GET("/api/referrals/oro-earned", { params: { query } })`.
 * Every call resolves to `{ data }` on success or `{ error }` (an ApiError) otherwise; it never throws for
 * an HTTP status.
 */
export function createApiClient(baseUrl: string, options: ApiClientOptions = {}): ApiClient {
  const client = createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    credentials: options.credentials ?? "include",
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const { token } = options;
  if (token !== undefined) {
    client.use({
      onRequest({ request }) {
        const value = typeof token === "function" ? token() : token;
        if (value) request.headers.set("authorization", `Bearer ${value}`);
        return request;
      },
    });
  }
  return client;
}
