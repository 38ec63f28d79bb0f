import type { ApiErrorCode } from "@oro/clients";
import { ApiRequestError } from "./api";

/**
 * The web's error catalogue: what the user is told for each code the API can answer (spec section 8), as keys of
 * the screens' strings. Keyed by the API's own list (ApiErrorCode of @oro/clients), so a code the API adds fails
 * typecheck until it is placed here. `null`: nothing more specific than the message of the screen that called.
 */
export const API_ERROR_MESSAGES = {
  VALIDATION_ERROR: null,
  BAD_REQUEST: null,
  UNAUTHORIZED: null,
  FORBIDDEN: null,
  NOT_FOUND: null,
  RATE_LIMITED: null,
  INTERNAL_ERROR: null,
  NOT_READY: null,
  DATABASE_UNAVAILABLE: null,
  FST_ERR_CTP_BODY_TOO_LARGE: null,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: null,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: null,
  FST_ERR_CTP_EMPTY_JSON_BODY: null,
  FST_ERR_CTP_INVALID_JSON_BODY: null,
  NONCE_UNKNOWN: null,
  NONCE_USED: null,
  NONCE_EXPIRED: null,
  SIWE_MESSAGE_INVALID: null,
  SIWE_VERSION_INVALID: null,
  SIWE_DOMAIN_MISMATCH: null,
  SIWE_URI_MISMATCH: null,
  SIWE_CHAIN_MISMATCH: null,
  SIWE_ISSUED_AT_INVALID: null,
  SIGNATURE_REQUIRED: null,
  SIGNATURE_INVALID: null,
  CHAIN_UNAVAILABLE: null,
  REFERRAL_CODE_NOT_FOUND: "referral.errors.codeNotFound",
  REFERRAL_ALREADY_EXISTS: "referral.errors.alreadyExists",
  NO_SELF_REFERRAL: "referral.errors.noSelfReferral",
  /** The API's answer when the user has already claimed (acceptance is only open before the first claim). */
  NOT_ELIGIBLE: "referral.errors.alreadyClaimed",
  ELIGIBILITY_UNAVAILABLE: null,
  STREAK_UNAVAILABLE: null,
  WORLD_ID_STATUS_UNAVAILABLE: null,
  STATS_UNAVAILABLE: null,
  REMINDER_UNAVAILABLE: null,
  PRICE_UNAVAILABLE: null,
  HUMAN_CHECK_UNAVAILABLE: null,
  NOT_VERIFIED_HUMAN: "polls.errors.NOT_VERIFIED_HUMAN",
  POLL_NOT_FOUND: "polls.errors.POLL_NOT_FOUND",
  POLL_CLOSED: "polls.errors.POLL_CLOSED",
  OPTION_NOT_FOUND: "polls.errors.OPTION_NOT_FOUND",
} as const satisfies Record<ApiErrorCode, string | null>;

export type ApiErrorMessageKey = Exclude<(typeof API_ERROR_MESSAGES)[ApiErrorCode], null>;

/** The catalogue's text for a code (the API's, or one the app uses in its place), or null. */
export function apiErrorMessageKeyOf(code: string): ApiErrorMessageKey | null {
  return Object.hasOwn(API_ERROR_MESSAGES, code) ? API_ERROR_MESSAGES[code as ApiErrorCode] : null;
}

/** The catalogue's text for an ApiRequestError; null for anything else. */
export function apiErrorMessageKey(error: unknown): ApiErrorMessageKey | null {
  return error instanceof ApiRequestError ? apiErrorMessageKeyOf(error.code) : null;
}
