import {
  PROOF_OF_HUMAN_SCHEMA,
  buildDevWorldId4Proof,
  devSessionId,
  devSessionNullifier,
  devSessionSeed,
  devWorldId4Nullifier,
  hashToField,
  idkitSessionIdOf,
  isIdkitSessionId,
  rpIdOf,
  sessionIdOf,
  type WorldId4Proof,
} from "@oro/clients";
import { randomBytes } from "node:crypto";
import { computeRpSignatureMessage } from "@worldcoin/idkit-core/signing";
import { bytesToBigInt, hexToBytes, isAddressEqual, isHex, pad, recoverMessageAddress, type Address, type Hex } from "viem";
import type { SimulatedHuman } from "./humans.js";

/**
 * World App's answers to IDKit 4's World ID 4.0 requests, as World's own code shapes them (idkit rust/core
 * bridge.rs and world-id-protocol primitives: ProofRequest in, ProofResponse out, both `deny_unknown_fields`). The
 * proofs are development proofs that only the local MockWorldIdVerifier accepts.
 */

/** World App discloses a uniqueness nullifier again only shortly after the first time (a retry); then refuses. */
export const REPLAY_GRACE_SECONDS = 600;

/** What the simulator reads of IDKit's `proof_request`. */
export interface WorldId4Request {
  id: string;
  kind: "uniqueness" | "create-session" | "prove-session";
  rpId: bigint;
  nonce: bigint;
  /** The uniqueness action as a field element (IDKit hashes the action string); null for sessions. */
  action: bigint | null;
  /** IDKit's session id, for a session proof. */
  sessionId: string | null;
  signalHash: bigint;
  genesisMin: number;
  expiresAtMin: number;
  createdAt: number;
  expiresAt: number;
  signature: Hex;
}

export type WorldId4Answer =
  | { ok: true; proofResponse: Record<string, unknown>; summary: string }
  | { ok: false; errorCode: string; summary: string };

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
}

function field(value: unknown, what: string): bigint {
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return BigInt(value);
  throw new Error(`${what} is not a field element: ${JSON.stringify(value)}`);
}

/** The raw bytes IDKit puts in a request item's `signal` (hex, with or without 0x), hashed as the protocol does. */
function signalHashOf(signal: unknown): bigint {
  if (signal === undefined || signal === null) return 0n;
  if (typeof signal !== "string") throw new Error("signal is not hex bytes");
  const hex = (signal.startsWith("0x") ? signal : `0x${signal}`) as Hex;
  if (!isHex(hex)) throw new Error("signal is not hex bytes");
  return hashToField(hex);
}

/** Reads IDKit's `proof_request`; null when the payload has none (a 3.0-only request). Throws on a malformed one. */
export function readWorldId4Request(payload: Record<string, unknown>): WorldId4Request | null {
  if (payload.proof_request === undefined || payload.proof_request === null) return null;
  const request = record(payload.proof_request);
  const items = Array.isArray(request.proof_requests) ? request.proof_requests.map(record) : [];
  const item = items.find((candidate) => candidate.identifier === "proof_of_human" || Number(candidate.issuer_schema_id) === Number(PROOF_OF_HUMAN_SCHEMA));
  if (!item) throw new Error("no proof_of_human item in the request");
  const rpRaw = request.rp_id;
  const rpId = typeof rpRaw === "string" && rpRaw.startsWith("rp_") ? rpIdOf(rpRaw) : field(rpRaw, "rp_id");
  const createdAt = Number(request.created_at);
  // IDKit 4.2 writes proof_type "create_session" / "session" (with the session id); World's newer protocol writes
  // "session" with `session_id: "create" | "session_…"`. A session request has no action either way.
  const sessionRaw = request.session_id;
  const sessionId = typeof sessionRaw === "string" && sessionRaw.startsWith("session_") ? sessionRaw : null;
  const isSessionType =
    request.proof_type === "create_session" || request.proof_type === "session" || sessionRaw === "create" || (request.action == null && payload.action === "");
  const kind = sessionId ? "prove-session" : isSessionType ? "create-session" : "uniqueness";
  const genesis = item.genesis_issued_at_min;
  const expires = item.expires_at_min;
  return {
    id: typeof request.id === "string" ? request.id : "",
    kind,
    rpId,
    nonce: field(request.nonce, "nonce"),
    action: kind === "uniqueness" ? field(request.action, "action") : null,
    sessionId,
    signalHash: signalHashOf(item.signal),
    genesisMin: typeof genesis === "number" ? genesis : 0,
    createdAt,
    expiresAt: Number(request.expires_at),
    signature: typeof request.signature === "string" && isHex(request.signature) ? request.signature : "0x",
    // The protocol's default: the request's creation time.
    expiresAtMin: typeof expires === "number" ? expires : createdAt,
  };
}

/**
 * What World checks of the relying party's request before any proof (world-id-protocol: the RP signs, EIP-191,
 * nonce ‖ created_at ‖ expires_at, plus the action for a uniqueness proof and none for a session; idkit-server's
 * computeRpSignatureMessage builds those bytes). Returns World's error code, or null when it would go on.
 */
export async function refusedRpContext(payload: Record<string, unknown>, request: WorldId4Request, rpSigner: Address): Promise<string | null> {
  if (!(request.expiresAt * 1000 > Date.now())) return "rp_signature_expired";
  const action = request.kind === "uniqueness" && typeof payload.action === "string" ? payload.action : undefined;
  const message = computeRpSignatureMessage(hexToBytes(pad(`0x${request.nonce.toString(16)}`, { size: 32 })), request.createdAt, request.expiresAt, action);
  const signer = await recoverMessageAddress({ message: { raw: message }, signature: request.signature }).catch(() => null);
  return signer && isAddressEqual(signer, rpSigner) ? null : "invalid_rp_signature";
}

const hex64 = (value: bigint) => value.toString(16).padStart(64, "0");

/** A proof as the protocol serialises it: 5 × 32 bytes, hex without 0x. */
function proofHex(proof: WorldId4Proof): string {
  return proof.map(hex64).join("");
}

function randomField(): bigint {
  return bytesToBigInt(randomBytes(31));
}

/** Whether a session is one World App created for this human (kept in memory, or re-derived after a restart). */
function holdsSession(human: SimulatedHuman, idkitSessionId: string): boolean {
  if (!isIdkitSessionId(idkitSessionId)) return false;
  if ([...human.sessions.values()].includes(idkitSessionId)) return true;
  const commitment = sessionIdOf(idkitSessionId);
  for (let counter = 1n; counter <= 64n; counter += 1n) {
    if (devSessionId(human.id, counter) === commitment && idkitSessionIdOf(commitment, devSessionSeed(human.id, counter)) === idkitSessionId) return true;
  }
  return false;
}

/**
 * Why the human's credential cannot answer the request, or null: walletkit proves a request only with a credential
 * that is not expired (`expires_at > now`), issued late enough (`genesis_issued_at >= genesis_issued_at_min`) and
 * long-lived enough (`expires_at > expires_at_min`, strictly, as the circuit), before any nullifier is disclosed.
 */
function unfitCredential(human: SimulatedHuman, request: WorldId4Request, chainNow: number): string | null {
  if (human.credentialExpiresAt <= chainNow) return "has expired";
  if (human.genesisIssuedAt < request.genesisMin) return "was issued before the request's genesis bound";
  if (human.credentialExpiresAt <= request.expiresAtMin) return "expires before the request's expires_at_min";
  return null;
}

/**
 * World App's answer to a 4.0 request of `human`, at `chainNow` (the local chain's clock, which the simulator moves).
 */
export function answerWorldId4(human: SimulatedHuman, request: WorldId4Request, chainNow: number): WorldId4Answer {
  const unfit = unfitCredential(human, request, chainNow);
  if (unfit) return { ok: false, errorCode: "credential_unavailable", summary: `World ID 4.0: ${human.name}'s credential ${unfit}` };
  const common = { rpId: request.rpId, nonce: request.nonce, signalHash: request.signalHash, expiresAtMin: BigInt(request.expiresAtMin), credentialGenesisIssuedAtMin: BigInt(request.genesisMin) };
  const item = { identifier: "proof_of_human", issuer_schema_id: Number(PROOF_OF_HUMAN_SCHEMA) };

  if (request.kind === "uniqueness") {
    const action = request.action ?? 0n;
    const key = `${request.rpId}:${action}`;
    const first = human.disclosed.get(key);
    if (first !== undefined && chainNow - first > REPLAY_GRACE_SECONDS) {
      return { ok: false, errorCode: "nullifier_replayed", summary: `World ID 4.0: ${human.name} already disclosed this action's nullifier (nullifier_replayed)` };
    }
    if (first === undefined) human.disclosed.set(key, chainNow);
    const nullifier = devWorldId4Nullifier(human.id, request.rpId, action);
    const proof = buildDevWorldId4Proof({ ...common, nullifier, action });
    return {
      ok: true,
      proofResponse: { id: request.id, version: 1, responses: [{ ...item, proof: proofHex(proof), nullifier: `nil_${hex64(nullifier)}`, expires_at_min: request.expiresAtMin }] },
      summary: `World ID 4.0: uniqueness proof for ${human.name}`,
    };
  }

  let idkitSessionId: string;
  if (request.kind === "create-session") {
    const counter = BigInt(human.sessions.size + 1);
    const commitment = devSessionId(human.id, counter);
    idkitSessionId = idkitSessionIdOf(commitment, devSessionSeed(human.id, counter));
    human.sessions.set(commitment, idkitSessionId);
  } else {
    idkitSessionId = request.sessionId ?? "";
    // World App can only prove a session it holds: another human's (or a made-up) session has no credential here.
    if (!holdsSession(human, idkitSessionId)) {
      return { ok: false, errorCode: "credential_unavailable", summary: `World ID 4.0: ${human.name} holds no session ${idkitSessionId.slice(0, 20)}…` };
    }
  }
  const sessionNullifier = devSessionNullifier(randomField());
  const proof = buildDevWorldId4Proof({ ...common, nullifier: sessionNullifier[0], action: sessionNullifier[1], sessionId: sessionIdOf(idkitSessionId) });
  return {
    ok: true,
    proofResponse: {
      id: request.id,
      version: 1,
      session_id: idkitSessionId,
      responses: [{ ...item, proof: proofHex(proof), session_nullifier: `snil_${hex64(sessionNullifier[0])}${hex64(sessionNullifier[1])}`, expires_at_min: request.expiresAtMin }],
    },
    summary: `World ID 4.0: ${request.kind === "create-session" ? "new session" : "session proof"} for ${human.name}`,
  };
}
