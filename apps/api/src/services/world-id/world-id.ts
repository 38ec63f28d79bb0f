import type { SignedWorldIdRequest, WorldIdRequestKind } from "@oro/clients";
import { signRequest } from "@worldcoin/idkit-core/signing";

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
