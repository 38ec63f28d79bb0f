import { signRequest } from "@worldcoin/idkit-core/signing";

/**
 * Which IDKit request is signed: the 3.0 claim action, World ID 4.0's enrolment action, or a session proof (IDKit's
 * createSession/proveSession, whose signature covers no action).
 */
export const WORLD_ID_REQUEST_KINDS = ["claim", "enrolment", "session"] as const;
export type WorldIdRequestKind = (typeof WORLD_ID_REQUEST_KINDS)[number];

/** The request context IDKit 4 takes as `rp_context`: who asks (the relying party), signed, and until when. */
export interface SignedWorldIdRequest {
  rp_id: string;
  nonce: string;
  created_at: number;
  expires_at: number;
  signature: string;
  /** The action the signature covers; null for a session request. */
  action: string | null;
}

export interface WorldIdOptions {
  rpId: string;
  signingKey: string;
  action: string;
  enrolmentAction: string;
  ttlMs: number;
}

export type WorldIdService = ReturnType<typeof createWorldIdService>;

/**
 * Signs IDKit requests with the relying party's key (never sent to the client). A signature only lets World App
 * answer the request; every proof is still verified on chain, so a leaked key lets nobody mint.
 */
export function createWorldIdService(options: WorldIdOptions) {
  function signWorldIdRequest(kind: WorldIdRequestKind = "claim"): SignedWorldIdRequest {
    const action = kind === "claim" ? options.action : kind === "enrolment" ? options.enrolmentAction : null;
    const ttl = Math.max(1, Math.round(options.ttlMs / 1000));
    const signed = signRequest(action === null ? { signingKeyHex: options.signingKey, ttl } : { signingKeyHex: options.signingKey, action, ttl });
    return {
      rp_id: options.rpId,
      nonce: signed.nonce,
      created_at: signed.createdAt,
      expires_at: signed.expiresAt,
      signature: signed.sig,
      action,
    };
  }
  return { signWorldIdRequest };
}
