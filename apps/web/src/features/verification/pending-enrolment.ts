import { sessionIdOf, type WorldIdProof, type WorldId4Proof } from "@oro/clients";
import type { Address } from "viem";
import type { PendingEnrolmentText } from "../../lib/api";
import type { Services } from "../../lib/services";
import { clearStored, readStored, writeStored } from "../../lib/storage";
import type { PendingEnrolment } from "../../lib/world-app/verify";

/** World's verifier refuses a proof whose expiresAtMin is more than this behind the block (its production config). */
const VERIFIER_EXPIRY_THRESHOLD_SECONDS = 5n * 3600n;

function fixed(values: readonly string[], length: number): bigint[] | null {
  return values.length === length ? values.map((value) => BigInt(value)) : null;
}

/** The pending enrolment as the device and the API keep it (decimal text). */
export function pendingToText({ kind, idkitSessionId, uniqueness: u, worldId3 }: PendingEnrolment): PendingEnrolmentText {
  return {
    kind,
    idkitSessionId,
    uniqueness: {
      nullifier: u.nullifier.toString(),
      nonce: u.nonce.toString(),
      expiresAtMin: u.expiresAtMin.toString(),
      credentialGenesisIssuedAtMin: u.credentialGenesisIssuedAtMin.toString(),
      proof: u.proof.map(String),
    },
    worldId3: worldId3 ? { merkleRoot: worldId3.merkleRoot.toString(), nullifierHash: worldId3.nullifierHash.toString(), proof: worldId3.proof.map(String) } : null,
  };
}

/** Back from text; null for a malformed one (a proof of the wrong length). */
export function pendingFromText(text: PendingEnrolmentText): PendingEnrolment | null {
  const proof = fixed(text.uniqueness.proof, 5);
  const proof3 = text.worldId3 ? fixed(text.worldId3.proof, 8) : null;
  if (!proof || (text.worldId3 && !proof3)) return null;
  const u = text.uniqueness;
  return {
    kind: text.kind,
    idkitSessionId: text.idkitSessionId as `session_${string}`,
    uniqueness: {
      nullifier: BigInt(u.nullifier),
      nonce: BigInt(u.nonce),
      expiresAtMin: BigInt(u.expiresAtMin),
      credentialGenesisIssuedAtMin: BigInt(u.credentialGenesisIssuedAtMin),
      proof: proof as unknown as WorldId4Proof,
    },
    worldId3:
      text.worldId3 && proof3
        ? { version: "3.0", merkleRoot: BigInt(text.worldId3.merkleRoot), nullifierHash: BigInt(text.worldId3.nullifierHash), proof: proof3 as unknown as WorldIdProof }
        : null,
  };
}

/** The address's pending enrolment kept on this device, if any. */
export function storedPending(address: Address): PendingEnrolment | null {
  const stored = readStored("pendingEnrolment");
  if (!stored || stored.address.toLowerCase() !== address.toLowerCase()) return null;
  return pendingFromText(stored);
}

/** Whether World's verifier still takes the pending uniqueness proof at `chainNow`. */
export function pendingUsable(pending: PendingEnrolment, chainNow: number): boolean {
  return BigInt(chainNow) <= pending.uniqueness.expiresAtMin + VERIFIER_EXPIRY_THRESHOLD_SECONDS;
}

/**
 * Keeps a pending enrolment on the device at once, then on the API (the signed-in wallet's). An API that does not
 * answer now is given it again when the app next opens (`settlePending`).
 */
export async function keepPending(api: Services["api"], address: Address, pending: PendingEnrolment): Promise<void> {
  const text = pendingToText(pending);
  writeStored("pendingEnrolment", { address, ...text });
  await api.keepPendingEnrolment(address, text).catch(() => undefined);
}

/** Forgets it on the device and the API: it landed, or it can never land. */
export async function forgetPending(api: Services["api"], address: Address): Promise<void> {
  if (readStored("pendingEnrolment")?.address.toLowerCase() === address.toLowerCase()) clearStored("pendingEnrolment");
  await api.forgetPendingEnrolment(address).catch(() => undefined);
}

/** Keeps this address's enrolled session (its enrolment or move landed). */
export function storeSession(address: Address, idkitSessionId: `session_${string}`): void {
  writeStored("worldId4", { address, idkitSessionId });
}

export type PendingOutcome = "landed" | "expired" | "pending";

/**
 * What the chain says of a pending enrolment or move, whatever any transaction's own status said (a copy sent by
 * someone else does what the human asked): its session enrolled (landed: the session is kept, the proofs dropped),
 * its uniqueness proof too old for the verifier (expired: dropped), or still to be sent.
 */
export async function settlePending({ api, chain }: Pick<Services, "api" | "chain">, address: Address, pending: PendingEnrolment): Promise<PendingOutcome> {
  const [record, settings] = await Promise.all([chain.readMintData({ version: "4.0", sessionId: sessionIdOf(pending.idkitSessionId) }), chain.readWorldIdSettings()]);
  if ((record.lastExpiresAtMin ?? 0n) > 0n) {
    storeSession(address, pending.idkitSessionId);
    await forgetPending(api, address);
    return "landed";
  }
  if (!pendingUsable(pending, settings.chainNow)) {
    await forgetPending(api, address);
    return "expired";
  }
  return "pending";
}
