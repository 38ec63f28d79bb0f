import { buildReferralMessage, REFERRAL_CODE_LENGTH } from "@oro/clients";
import type { Address } from "viem";
import type { Services } from "../../lib/services";
import { ReferralError } from "./referral-errors";

/** What a code input holds: no spaces, upper case, at most 8 characters. */
export function normaliseReferralCode(text: string): string {
  return text.replace(/\s+/g, "").toUpperCase().slice(0, REFERRAL_CODE_LENGTH);
}

export function isCompleteReferralCode(code: string): boolean {
  return code.length === REFERRAL_CODE_LENGTH;
}

export interface AcceptReferralRequest {
  /** The signed-in address; null when signed out. */
  address: Address | null;
  verified: boolean;
  code: string;
  /** Reads the user's own code (null when it cannot be read: the API refuses self-referral anyway). */
  ownCode: () => Promise<string | null>;
}

export interface AcceptedReferral {
  referralCode: string;
  referrerUsername: string | null;
}

/**
 * Spec section 5: connected and verified (else NOT_CONNECTED); the user's own code refused before any request;
 * the invite message signed in the wallet first (no signature is sent as an empty string, and the API's refusal
 * shown); a refusal of the API throws its ApiRequestError, with the API's code.
 */
export async function acceptReferral({ api, wallet }: Pick<Services, "api" | "wallet">, request: AcceptReferralRequest): Promise<AcceptedReferral> {
  const { address } = request;
  if (!address || !request.verified) throw new ReferralError("NOT_CONNECTED");
  const referralCode = request.code.trim().toUpperCase();
  const ownCode = await request.ownCode().catch(() => null);
  if (ownCode && ownCode.toUpperCase() === referralCode) throw new ReferralError("NO_SELF_REFERRAL");
  const nonce = await api.getReferralNonce(address);
  const message = buildReferralMessage({ referralCode, address, nonce });
  const signature = await wallet
    .signMessage(message)
    .then((signed) => signed.signature as string)
    .catch(() => "");
  const { referralUser } = await api.acceptReferral(address, { referralCode, signature, nonce });
  return { referralCode, referrerUsername: referralUser.username };
}
