import { ApiRequestError } from "../../lib/api";
import { apiErrorMessageKeyOf, type ApiErrorMessageKey } from "../../lib/api-errors";

export const UNKNOWN_REFERRAL_ERROR = "referral.errors.unknown";

export type ReferralErrorMessageKey = ApiErrorMessageKey | typeof UNKNOWN_REFERRAL_ERROR;

/** An acceptance the app refuses before any request (NOT_CONNECTED, NO_SELF_REFERRAL); the API's refusals are ApiRequestErrors. */
export class ReferralError extends Error {
  override readonly name = "ReferralError";
  constructor(readonly code: string) {
    super(`Referral not accepted: ${code}`);
  }
}

export function referralErrorCode(error: unknown): string {
  if (error instanceof ReferralError || error instanceof ApiRequestError) return error.code;
  return "UNKNOWN";
}

/**
 * The i18n key of the text shown for a failed acceptance: the error catalogue's (spec section 8; the app's own
 * NO_SELF_REFERRAL is the API's code), else 'unknown'.
 */
export function referralErrorMessageKey(error: unknown): ReferralErrorMessageKey {
  return apiErrorMessageKeyOf(referralErrorCode(error)) ?? UNKNOWN_REFERRAL_ERROR;
}
