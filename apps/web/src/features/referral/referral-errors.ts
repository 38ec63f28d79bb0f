import { ApiRequestError } from "../../lib/api";

/** The referral errors the user is told about in words (spec section 8); every other one is 'unknown'. */
export const REFERRAL_ERROR_MESSAGES = {
  REFERRAL_CODE_NOT_FOUND: "referral.errors.codeNotFound",
  REFERRAL_ALREADY_EXISTS: "referral.errors.alreadyExists",
  /** The API's answer when the user has already claimed (acceptance is only open before the first claim). */
  NOT_ELIGIBLE: "referral.errors.alreadyClaimed",
  NO_SELF_REFERRAL: "referral.errors.noSelfReferral",
} as const;
export const UNKNOWN_REFERRAL_ERROR = "referral.errors.unknown";

export type ReferralErrorMessageKey = (typeof REFERRAL_ERROR_MESSAGES)[keyof typeof REFERRAL_ERROR_MESSAGES] | typeof UNKNOWN_REFERRAL_ERROR;

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

/** The i18n key of the text shown for a failed acceptance. */
export function referralErrorMessageKey(error: unknown): ReferralErrorMessageKey {
  const code = referralErrorCode(error);
  return Object.hasOwn(REFERRAL_ERROR_MESSAGES, code) ? REFERRAL_ERROR_MESSAGES[code as keyof typeof REFERRAL_ERROR_MESSAGES] : UNKNOWN_REFERRAL_ERROR;
}
