/**
 * Texts that the wallet signs for the ORO API. The web app builds them, the API rebuilds them to verify a
 * signature, so both use these functions and no copy of the wording exists anywhere else.
 */

/** The statement of the sign-in (SIWE) message; the API refuses a sign-in whose statement differs. */
export const SIGN_IN_STATEMENT = "Claim ORO daily on the chain.";

/** The product's app id in referral codes (`app` of `GET /api/referral_codes/for_user`). */
export const REFERRAL_APP = "oro";

/** Length of a referral code. */
export const REFERRAL_CODE_LENGTH = 8;

/** Characters of a referral code: upper case, without the look-alikes 0/O and 1/I/L. */
export const REFERRAL_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

export interface ReferralMessageInput {
  /** The code being accepted; matched case-insensitively, written upper case in the message. */
  referralCode: string;
  /** The referee's address (the account that signs). */
  address: string;
  /** The single-use nonce from `GET /api/referrals/nonce`. */
  nonce: string;
}

/**
 * The message a referee signs (EIP-191 `personal_sign`) to accept a referral code. It names the code and a
 * fresh nonce from the API, so a signature neither accepts another code nor can be replayed.
 */
export function buildReferralMessage(input: ReferralMessageInput): string {
  return [
    "ORO: accept an invite",
    "",
    `I accept the invite code ${input.referralCode.trim().toUpperCase()}.`,
    "",
    `Account: ${input.address.toLowerCase()}`,
    `Nonce: ${input.nonce}`,
  ].join("\n");
}
