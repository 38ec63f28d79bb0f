import { useMutation } from "@tanstack/react-query";
import { useMemo } from "react";
import type { Address } from "viem";
import type { WorldIdProof } from "@oro/clients";
import { useServices } from "../../lib/services";
import { useStored, writeStored } from "../../lib/storage";
import type { VerificationResult } from "../../lib/world-app/verify";

function toProof(values: readonly string[]): WorldIdProof | null {
  if (values.length !== 8) return null;
  const [a, b, c, d, e, f, g, h] = values.map((value) => BigInt(value));
  if (a === undefined || b === undefined || c === undefined || d === undefined) return null;
  if (e === undefined || f === undefined || g === undefined || h === undefined) return null;
  return [a, b, c, d, e, f, g, h];
}

/** The verification of this address (a proof is bound to the address that receives the ORO), or null. */
export function useVerification(address: Address | null): VerificationResult | null {
  const stored = useStored("verification");
  return useMemo(() => {
    if (!stored || !address || stored.address.toLowerCase() !== address.toLowerCase()) return null;
    const proof = toProof(stored.proof);
    if (!proof) return null;
    return { merkleRoot: BigInt(stored.merkleRoot), nullifierHash: BigInt(stored.nullifierHash), proof };
  }, [stored, address]);
}

/** World ID verification for the claim action; `onFailure` opens the not-verified modal. */
export function useVerify(address: Address | null, onFailure: (error: unknown) => void) {
  const { api, wallet, monitoring } = useServices();
  return useMutation({
    mutationKey: ["verify", address],
    mutationFn: async () => {
      if (!address) throw new Error("Sign in first");
      const result = await wallet.verifyHuman(address, () => api.getWorldIdRequest(address));
      writeStored("verification", {
        address,
        merkleRoot: result.merkleRoot.toString(),
        nullifierHash: result.nullifierHash.toString(),
        proof: result.proof.map((value) => value.toString()),
      });
      monitoring.event("verified");
      return result;
    },
    onError: onFailure,
  });
}
