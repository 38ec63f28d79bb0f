import { signRequest } from "@worldcoin/idkit-core/signing";

/** The request context IDKit 4 takes as `rp_context`: who asks (the relying party), signed, and until when. */
export interface SignedWorldIdRequest {
  rp_id: string;
  nonce: string;
  created_at: number;
  expires_at: number;
  signature: string;
  /** The action the signature covers. */
  action: string;
}

export interface WorldIdOptions {
  rpId: string;
  signingKey: string;
  action: string;
  ttlMs: number;
}

export type WorldIdService = ReturnType<typeof createWorldIdService>;

/** Signs IDKit requests for the claim action with the relying party's key (never sent to the client). */
export function createWorldIdService(options: WorldIdOptions) {
  function signClaimRequest(): SignedWorldIdRequest {
    const signed = signRequest({
      signingKeyHex: options.signingKey,
      action: options.action,
      ttl: Math.max(1, Math.round(options.ttlMs / 1000)),
    });
    return {
      rp_id: options.rpId,
      nonce: signed.nonce,
      created_at: signed.createdAt,
      expires_at: signed.expiresAt,
      signature: signed.sig,
      action: options.action,
    };
  }
  return { signClaimRequest };
}
