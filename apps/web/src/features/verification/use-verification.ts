import { useMutation, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { Address } from "viem";
import type { WorldIdProof } from "@oro/clients";
import { useServices } from "../../lib/services";
import { isUserRejection } from "../../lib/world-app/errors";
import { clearStored, useStored, writeStored } from "../../lib/storage";
import type { PendingEnrolment, VerificationResult } from "../../lib/world-app/verify";
import { keepPending, pendingFromText, pendingToText, settlePending, storeSession, storedPending } from "./pending-enrolment";

function toProof(values: readonly string[]): WorldIdProof | null {
  if (values.length !== 8) return null;
  const [a, b, c, d, e, f, g, h] = values.map((value) => BigInt(value));
  if (a === undefined || b === undefined || c === undefined || d === undefined) return null;
  if (e === undefined || f === undefined || g === undefined || h === undefined) return null;
  return [a, b, c, d, e, f, g, h];
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Drops the kept 3.0 proof and enrolled session: the contract will not take them again, so the person verifies anew.
 * A pending enrolment is not dropped here: World App would not disclose it again.
 */
export function forgetVerification() {
  clearStored("worldId4");
  clearStored("verification");
}

/** The address's enrolment or move that has not landed (kept on this device), or null. */
export function usePendingEnrolment(address: Address | null): PendingEnrolment | null {
  const stored = useStored("pendingEnrolment");
  return useMemo(() => (address && stored && sameAddress(stored.address, address) ? pendingFromText(stored) : null), [stored, address]);
}

/**
 * The verification of this address (a proof is bound to the address that receives the ORO), or null: its enrolled
 * 4.0 session, else its pending enrolment (a pending move too once 3.0 is closed: it enrols the human instead), else
 * its 3.0 proof while 3.0 is open.
 */
export function useVerification(address: Address | null, worldId3Closed = false): VerificationResult | null {
  const stored = useStored("verification");
  const stored4 = useStored("worldId4");
  const pending = usePendingEnrolment(address);
  return useMemo(() => {
    if (!address) return null;
    if (stored4 && sameAddress(stored4.address, address)) return { version: "4.0", idkitSessionId: stored4.idkitSessionId as `session_${string}`, pending: null };
    if (pending && (pending.kind === "enrol" || worldId3Closed)) return { version: "4.0", idkitSessionId: pending.idkitSessionId, pending };
    if (worldId3Closed || !stored || !sameAddress(stored.address, address)) return null;
    const proof = toProof(stored.proof);
    if (!proof) return null;
    return { version: "3.0", merkleRoot: BigInt(stored.merkleRoot), nullifierHash: BigInt(stored.nullifierHash), proof };
  }, [stored, stored4, pending, address, worldId3Closed]);
}

/**
 * When the app opens signed in: a pending enrolment on the device is checked against the chain (landed, or too old)
 * and given to the API again (it may not have answered when it was made); a device that has nothing (reinstalled,
 * another phone) takes the one the API keeps for the wallet. No prompt either way.
 */
export function usePendingEnrolmentSync(address: Address | null): void {
  const services = useServices();
  const stored4 = useStored("worldId4");
  const enrolled = stored4 !== null && address !== null && sameAddress(stored4.address, address);
  useQuery({
    queryKey: ["pending-enrolment", address],
    enabled: address !== null && !enrolled,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      if (!address) return null;
      let pending = storedPending(address);
      if (!pending) {
        const kept = await services.api.getPendingEnrolment(address);
        pending = kept ? pendingFromText(kept) : null;
        if (!pending || storedPending(address)) return null;
        writeStored("pendingEnrolment", { address, ...pendingToText(pending) });
      } else {
        await services.api.keepPendingEnrolment(address, pendingToText(pending)).catch(() => undefined);
      }
      return settlePending(services, address, pending);
    },
  });
}

/**
 * World ID verification; `onFailure` opens the not-verified modal. What needs no prompt comes first: a pending
 * enrolment on the device or the API, then the session the chain records for the wallet's human (enrolled on
 * another device); a uniqueness proof World App gives is kept before anything else.
 */
export function useVerify(address: Address | null, onFailure: (error: unknown) => void) {
  const { api, chain, wallet, monitoring } = useServices();
  return useMutation({
    mutationKey: ["verify", address],
    mutationFn: async () => {
      if (!address) throw new Error("Sign in first");
      const known = async (): Promise<VerificationResult | null> => {
        const local = storedPending(address);
        const kept = local ?? (await api.getPendingEnrolment(address).then((text) => (text ? pendingFromText(text) : null)).catch(() => null));
        if (kept) {
          if (!local) writeStored("pendingEnrolment", { address, ...pendingToText(kept) });
          // A pending move stays the move card's while 3.0 is open (the person claims with 3.0 meanwhile); once 3.0
          // is closed it enrols the human instead.
          if (kept.kind === "enrol" || (await chain.readWorldIdSettings()).worldId3Closed) return { version: "4.0", idkitSessionId: kept.idkitSessionId, pending: kept };
        }
        const { idkitSessionId } = await api.getWorldIdStatus(address);
        if (!idkitSessionId) return null;
        storeSession(address, idkitSessionId);
        return { version: "4.0", idkitSessionId, pending: null };
      };
      const result = await wallet.verifyHuman(address, (kind) => api.getWorldIdRequest(address, kind), {
        settings: () => chain.readWorldIdSettings(),
        known,
        keep: (pending) => keepPending(api, address, pending),
      });
      if (result.version === "3.0") {
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
