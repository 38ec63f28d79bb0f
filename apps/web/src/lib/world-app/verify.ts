import type { WorldIdProof } from "@oro/clients";
import { decodeAbiParameters, type Address, type Hex } from "viem";
import { env } from "../../env";
import { devFallbackAvailable, getDevWallet } from "./fallback";
import { isInWorldApp } from "./install";
import { WorldAppError } from "./errors";

/** A World ID proof for the claim action, ready for `mint(root, nullifierHash, proof, receiver)`. */
export interface VerificationResult {
  merkleRoot: bigint;
  nullifierHash: bigint;
  proof: WorldIdProof;
}

/** The request context the API signs for IDKit 4 (`rp_context`). */
export interface SignedWorldIdRequest {
  rp_id: string;
  nonce: string;
  created_at: number;
  expires_at: number;
  signature: string;
}

/** The legacy (v3) proof is ABI-encoded; the World ID router takes it as `uint256[8]`. */
export function decodeLegacyProof(encoded: Hex): WorldIdProof {
  const [proof] = decodeAbiParameters([{ type: "uint256[8]" }], encoded);
  return proof;
}

/**
 * Verifies the user with World ID (IDKit 4, Orb, legacy proof) for the claim action, the signal being the address
 * that will receive the ORO. IDKit and its WASM are imported here only, so they load when the user verifies.
 */
export async function verifyHuman(signal: Address, signedRequest: () => Promise<SignedWorldIdRequest>): Promise<VerificationResult> {
  if (!isInWorldApp() && devFallbackAvailable()) return (await getDevWallet("verify")).verify(signal);
  const appId = env.worldAppId;
  if (!appId?.startsWith("app_")) throw new WorldAppError("verify", "missing_app_id");
  const { IDKit, orbLegacy } = await import("@worldcoin/idkit");
  const request = await IDKit.request({
    app_id: appId as `app_${string}`,
    action: env.claimAction,
    rp_context: await signedRequest(),
    allow_legacy_proofs: true,
  }).preset(orbLegacy({ signal }));
  const completion = await request.pollUntilCompletion();
  if (!completion.success) throw new WorldAppError("verify", String(completion.error));
  const { result } = completion;
  if (result.protocol_version !== "3.0") throw new WorldAppError("verify", "unexpected_proof_version");
  const [response] = result.responses;
  if (!response) throw new WorldAppError("verify", "empty_response");
  return {
    merkleRoot: BigInt(response.merkle_root),
    nullifierHash: BigInt(response.nullifier),
    proof: decodeLegacyProof(response.proof as Hex),
  };
}
