import { useMutation } from "@tanstack/react-query";
import { useMemo } from "react";
import type { Address } from "viem";
import type { WorldIdProof } from "@oro/clients";
import { useServices } from "../../lib/services";
import { isUserRejection } from "../../lib/world-app/errors";
import { clearStored, useStored, writeStored } from "../../lib/storage";
import type { VerificationResult, WorldId4Verification } from "../../lib/world-app/verify";

function toProof(values: readonly string[]): WorldIdProof | null {
  if (values.length !== 8) return null;
  const [a, b, c, d, e, f, g, h] = values.map((value) => BigInt(value));
  if (a === undefined || b === undefined || c === undefined || d === undefined) return null;
  if (e === undefined || f === undefined || g === undefined || h === undefined) return null;
  return [a, b, c, d, e, f, g, h];
}

/** Keeps this address's 4.0 session (and the enrolment proofs until the enrolment lands). */
export function storeWorldId4(address: Address, verification: WorldId4Verification) {
  writeStored("worldId4", {
    address,
    idkitSessionId: verification.idkitSessionId,
    enrolment: verification.enrolment,
  });
}

/** Drops the kept proof and session: the contract will not take them again, so the person verifies anew. */
export function forgetVerification() {
  clearStored("worldId4");
  clearStored("verification");
}

/**
 * The verification of this address (a proof is bound to the address that receives the ORO), or null: its 4.0
 * session if it has one, else its 3.0 proof.
 */
export function useVerification(address: Address | null): VerificationResult | null {
  const stored = useStored("verification");
  const stored4 = useStored("worldId4");
  return useMemo(() => {
    if (!address) return null;
    if (stored4 && stored4.address.toLowerCase() === address.toLowerCase()) {
      return { version: "4.0", idkitSessionId: stored4.idkitSessionId as `session_${string}`, enrolment: stored4.enrolment };
    }
    if (!stored || stored.address.toLowerCase() !== address.toLowerCase()) return null;
    const proof = toProof(stored.proof);
    if (!proof) return null;
    return { version: "3.0", merkleRoot: BigInt(stored.merkleRoot), nullifierHash: BigInt(stored.nullifierHash), proof };
  }, [stored, stored4, address]);
}

/**
 * World ID verification; `onFailure` opens the not-verified modal. A human whose 4.0 session the chain already
 * records (enrolled on another device) gets it back without a prompt.
 */
export function useVerify(address: Address | null, onFailure: (error: unknown) => void) {
  const { api, chain, wallet, monitoring } = useServices();
  return useMutation({
    mutationKey: ["verify", address],
    mutationFn: async () => {
      if (!address) throw new Error("Sign in first");
      const result = await wallet.verifyHuman(address, (kind) => api.getWorldIdRequest(address, kind), {
        settings: () => chain.readWorldIdSettings(),
        knownSession: () => api.getWorldIdStatus(address).then((status) => status.idkitSessionId),
      });
      if (result.version === "4.0") storeWorldId4(address, result);
      else {
        writeStored("verification", {
          address,
          merkleRoot: result.merkleRoot.toString(),
          nullifierHash: result.nullifierHash.toString(),
          proof: result.proof.map((value) => value.toString()),
        });
      }
      monitoring.event("verified");
      return result;
    },
    // Closing World App's prompt is the person's choice, not a failed verification: no not-verified modal.
    onError: (error) => {
      if (!isUserRejection(error)) onFailure(error);
    },
  });
}
