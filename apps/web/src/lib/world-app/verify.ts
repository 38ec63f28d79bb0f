import {
  enrolmentSignalOf,
  moveSignalOf,
  sessionIdOf,
  sessionProofFromIdkit,
  uniquenessProofFromIdkit,
  type IdkitSessionItem,
  type IdkitUniquenessItem,
  type SessionProof,
  type SignedWorldIdRequest,
  type UniquenessProof,
  type WorldIdProof,
  type WorldIdRequestKind,
} from "@oro/clients";
// IDKit (and its WASM) load with this module, which loads when the user verifies or claims (lib/default-services.ts).
import { CredentialRequest, IDKit, orbLegacy } from "@worldcoin/idkit";
import { decodeAbiParameters, type Address, type Hex } from "viem";
import { deployment, env } from "../../env";
import { encodeEnrolment } from "../world-id-calls";
import { devFallbackAvailable, getDevWallet } from "./fallback";
import { WorldAppError } from "./errors";

/** A World ID 3.0 proof for the claim action, ready for `mint(root, nullifierHash, proof, receiver)` (reusable). */
export interface WorldId3Verification {
  version: "3.0";
  merkleRoot: bigint;
  nullifierHash: bigint;
  proof: WorldIdProof;
}

/**
 * The two proofs of a 4.0 enrolment as kept on the device until the enrolment lands (World App discloses the
 * nullifier once): decimal strings, uniqueness [nullifier, nonce, expiresAtMin, proof×5], session [sessionId,
 * sessionNullifier×2, nonce, expiresAtMin, proof×5]. lib/world-id-calls.ts encodes and decodes them.
 */
export interface StoredEnrolment {
  uniqueness: string[];
  session: string[];
}

/** The two proofs of a 4.0 enrolment, as the contract takes them. */
export interface PendingEnrolment {
  uniqueness: UniquenessProof;
  session: SessionProof;
}

/** A World ID 4.0 human: their ORO session; each claim asks World App for a fresh proof of it. */
export interface WorldId4Verification {
  version: "4.0";
  idkitSessionId: `session_${string}`;
  /** Until the first claim (the enrolment) lands. */
  enrolment: StoredEnrolment | null;
}

export type VerificationResult = WorldId3Verification | WorldId4Verification;

/**
 * The request context IDKit 4 takes (`rp_context`): the request the API signs (SignedWorldIdRequest of @oro/clients)
 * without the action it covers, which IDKit is given on its own.
 */
export type RpContext = Omit<SignedWorldIdRequest, "action">;

/** Asks the API to sign a request: the 3.0 claim action, the 4.0 enrolment action, or a session (no action). */
export type SignWorldIdRequest = (kind: WorldIdRequestKind) => Promise<RpContext>;

/** What the chain says about the move from 3.0 (read before asking World App, so the request fits the contract). */
export interface WorldIdSettings {
  worldId3Closed: boolean;
  /** Unix seconds: while 3.0 is open, only credentials issued since may enrol (older humans move instead). */
  genesisCutoff: number;
  /** The chain's clock: the proofs' minimum credential expiry, which each claim must raise. */
  chainNow: number;
}

/** World App's answers that mean "no 3.0 proof for this human": they enrol in 4.0 instead. */
const NO_WORLD_ID_3 = new Set(["world_id_3_not_available", "credential_unavailable"]);

/** The legacy (v3) proof is ABI-encoded; the World ID router takes it as `uint256[8]`. */
export function decodeLegacyProof(encoded: Hex): WorldIdProof {
  const [proof] = decodeAbiParameters([{ type: "uint256[8]" }], encoded);
  return proof;
}

function appId(): `app_${string}` {
  const id = env.worldAppId;
  if (!id?.startsWith("app_")) throw new WorldAppError("verify", "missing_app_id");
  return id as `app_${string}`;
}


async function completed(request: { pollUntilCompletion(): Promise<{ success: true; result: unknown } | { success: false; error: unknown }> }) {
  const completion = await request.pollUntilCompletion();
  if (!completion.success) throw new WorldAppError("verify", String(completion.error));
  return completion.result as Record<string, unknown> & { protocol_version: string; nonce: string; responses: Record<string, unknown>[] };
}

/** A 3.0 proof (Orb, legacy preset) for the claim action, its signal `signal`. */
async function verifyWorldId3(signal: Hex, sign: SignWorldIdRequest): Promise<WorldId3Verification> {
  const request = await IDKit.request({ app_id: appId(), action: env.claimAction, rp_context: await sign("claim"), allow_legacy_proofs: true }).preset(orbLegacy({ signal }));
  const result = await completed(request);
  if (result.protocol_version !== "3.0") throw new WorldAppError("verify", "unexpected_proof_version");
  const [response] = result.responses;
  if (!response) throw new WorldAppError("verify", "empty_response");
  return {
    version: "3.0",
    merkleRoot: BigInt(String(response.merkle_root)),
    nullifierHash: BigInt(String(response.nullifier)),
    proof: decodeLegacyProof(response.proof as Hex),
  };
}

/** World ID 4.0 proof of human, with our signal, genesis bound and expiry floor. */
function proofOfHuman(signal: Hex, genesisMin: number, chainNow: number) {
  return CredentialRequest("proof_of_human", { signal, genesis_issued_at_min: genesisMin, expires_at_min: chainNow });
}

function firstItem(result: { responses: Record<string, unknown>[] }): Record<string, unknown> {
  const [item] = result.responses;
  if (!item) throw new WorldAppError("verify", "empty_response");
  return item;
}

/** A new session of this human for ORO, and its creation proof (signal: the receiver). */
async function createSession(receiver: Address, sign: SignWorldIdRequest, genesisMin: number, chainNow: number) {
  const request = await IDKit.createSession({ app_id: appId(), rp_context: await sign("session") }).constraints(proofOfHuman(receiver, genesisMin, chainNow));
  const result = await completed(request);
  const idkitSessionId = result.session_id;
  if (typeof idkitSessionId !== "string") throw new WorldAppError("verify", "unexpected_proof_version");
  return { idkitSessionId: idkitSessionId as `session_${string}`, proof: sessionProofFromIdkit(idkitSessionId, firstItem(result) as unknown as IdkitSessionItem, result.nonce) };
}

/**
 * Enrols in World ID 4.0: a new session, then the human's uniqueness proof for the enrolment action whose signal
 * names the receiver and that session. The enrolment transaction is the first claim.
 */
async function enrolWorldId4(receiver: Address, sign: SignWorldIdRequest, settings: WorldIdSettings): Promise<WorldId4Verification> {
  const enrolmentAction = deployment?.worldId.enrolmentAction;
  if (!enrolmentAction) throw new WorldAppError("verify", "missing_app_id");
  const genesisMin = settings.worldId3Closed ? 0 : settings.genesisCutoff;
  const session = await createSession(receiver, sign, genesisMin, settings.chainNow);
  const request = await IDKit.request({ app_id: appId(), action: enrolmentAction, rp_context: await sign("enrolment"), allow_legacy_proofs: false }).constraints(
    proofOfHuman(enrolmentSignalOf(receiver, sessionIdOf(session.idkitSessionId)), genesisMin, settings.chainNow),
  );
  const result = await completed(request);
  if (result.protocol_version !== "4.0") throw new WorldAppError("verify", "unexpected_proof_version");
  const uniqueness = uniquenessProofFromIdkit(firstItem(result) as unknown as IdkitUniquenessItem, result.nonce);
  return { version: "4.0", idkitSessionId: session.idkitSessionId, enrolment: encodeEnrolment({ uniqueness, session: session.proof }) };
}

/** What verifying reads first: the chain's World ID settings, and a session the chain already records for the human. */
export interface VerifyContext {
  settings(): Promise<WorldIdSettings>;
  knownSession(): Promise<`session_${string}` | null>;
}

/**
 * Verifies the human for `receiver`. A session the chain already records (enrolled on another device) is taken
 * without a prompt; else a 3.0 proof while 3.0 is open and World App still makes one for them, else a 4.0
 * enrolment (a human verified since World ID 4.0, or anyone once 3.0 is closed).
 */
export async function verifyHuman(receiver: Address, sign: SignWorldIdRequest, context: VerifyContext): Promise<VerificationResult> {
  const known = await context.knownSession().catch(() => null);
  if (known) return { version: "4.0", idkitSessionId: known, enrolment: null };
  const settings = await context.settings();
  // World App defines window.WorldApp (IDKit's own test); not MiniKit's, which would pull MiniKit into this lazy chunk.
  const inWorldApp = Boolean((window as { WorldApp?: unknown }).WorldApp);
  if (!inWorldApp && devFallbackAvailable()) return (await getDevWallet("verify")).verify(receiver);
  if (!settings.worldId3Closed) {
    try {
      return await verifyWorldId3(receiver, sign);
    } catch (error) {
      if (!(error instanceof WorldAppError && NO_WORLD_ID_3.has(error.code))) throw error;
    }
  }
  return enrolWorldId4(receiver, sign, settings);
}

/** A fresh proof of the human's session for one claim to `receiver` (World App refuses a session it does not hold). */
export async function proveSession(idkitSessionId: `session_${string}`, receiver: Address, sign: SignWorldIdRequest, chainNow: number): Promise<SessionProof> {
  const request = await IDKit.proveSession(idkitSessionId, { app_id: appId(), rp_context: await sign("session") }).constraints(proofOfHuman(receiver, 0, chainNow));
  const result = await completed(request);
  return sessionProofFromIdkit(idkitSessionId, firstItem(result) as unknown as IdkitSessionItem, result.nonce);
}

/** What `moveToWorldId4Session` takes: the human's 3.0 proof choosing the new session, and the enrolment proofs. */
export interface MoveProofs {
  idkitSessionId: `session_${string}`;
  worldId3: WorldId3Verification;
  enrolment: PendingEnrolment;
}

/**
 * The three prompts of a move from 3.0: a new session, the human's uniqueness proof for the enrolment action (both
 * without a genesis bound: the 3.0 proof is what closes the old path), and a 3.0 proof whose signal is the session.
 */
export async function moveProofs(receiver: Address, sign: SignWorldIdRequest, chainNow: number): Promise<MoveProofs> {
  const enrolmentAction = deployment?.worldId.enrolmentAction;
  if (!enrolmentAction) throw new WorldAppError("verify", "missing_app_id");
  const session = await createSession(receiver, sign, 0, chainNow);
  const sessionId = sessionIdOf(session.idkitSessionId);
  const request = await IDKit.request({ app_id: appId(), action: enrolmentAction, rp_context: await sign("enrolment"), allow_legacy_proofs: false }).constraints(
    proofOfHuman(enrolmentSignalOf(receiver, sessionId), 0, chainNow),
  );
  const result = await completed(request);
  if (result.protocol_version !== "4.0") throw new WorldAppError("verify", "unexpected_proof_version");
  const uniqueness = uniquenessProofFromIdkit(firstItem(result) as unknown as IdkitUniquenessItem, result.nonce);
  const worldId3 = await verifyWorldId3(moveSignalOf(sessionId), sign);
  return { idkitSessionId: session.idkitSessionId, worldId3, enrolment: { uniqueness, session: session.proof } };
}
