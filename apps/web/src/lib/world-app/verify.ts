import {
  enrolmentSessionSignalOf,
  enrolmentSignalOf,
  moveSignalOf,
  sessionIdOf,
  sessionSeedOf,
  sessionProofFromIdkit,
  uniquenessProofFromIdkit,
  type IdkitSessionItem,
  type IdkitUniquenessItem,
  type SessionProof,
  type UniquenessProof,
  type WorldIdProof,
} from "@oro/clients";
// IDKit (and its WASM) load with this module, which loads when the user verifies or claims (lib/default-services.ts).
import { CredentialRequest, IDKit, orbLegacy } from "@worldcoin/idkit";
import { decodeAbiParameters, type Address, type Hex } from "viem";
import { deployment, env } from "../../env";
import { devFallbackAvailable, getDevWallet } from "./fallback";
import { WorldAppError } from "./errors";
import type { KeepPending, PendingEnrolment, SignWorldIdRequest, VerificationResult, VerifyContext, WorldId3Verification, WorldId4Verification, WorldIdSettings } from "./types/verify";

export type * from "./types/verify";

/**
 * How long the enrolment's uniqueness proof is asked to stay usable (its `expires_at_min`, from the chain's clock):
 * World's verifier refuses a proof 5 hours past that bound, so a slide days after verifying still lands.
 */
export const UNIQUENESS_EXPIRY_AHEAD_SECONDS = 30 * 86_400;

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

function enrolmentAction(): string {
  const action = deployment?.worldId.enrolmentAction;
  if (!action) throw new WorldAppError("verify", "missing_app_id");
  return action;
}

async function completed(request: { pollUntilCompletion(): Promise<{ success: true; result: unknown } | { success: false; error: unknown }> }) {
  const completion = await request.pollUntilCompletion();
  if (!completion.success) throw new WorldAppError("verify", String(completion.error));
  return completion.result as Record<string, unknown> & { protocol_version: string; nonce: string; responses: Record<string, unknown>[] };
}

function firstItem(result: { responses: Record<string, unknown>[] }): Record<string, unknown> {
  const [item] = result.responses;
  if (!item) throw new WorldAppError("verify", "empty_response");
  return item;
}

/** A 3.0 proof (Orb, legacy preset) for the claim action, its signal `signal`. */
async function verifyWorldId3(signal: Hex, sign: SignWorldIdRequest): Promise<WorldId3Verification> {
  const request = await IDKit.request({ app_id: appId(), action: env.claimAction, rp_context: await sign("claim"), allow_legacy_proofs: true }).preset(orbLegacy({ signal }));
  const result = await completed(request);
  if (result.protocol_version !== "3.0") throw new WorldAppError("verify", "unexpected_proof_version");
  const response = firstItem(result);
  return {
    version: "3.0",
    merkleRoot: BigInt(String(response.merkle_root)),
    nullifierHash: BigInt(String(response.nullifier)),
    proof: decodeLegacyProof(response.proof as Hex),
  };
}

/** World ID 4.0 proof of human with our signal (if any), genesis bound and credential expiry floor. */
function proofOfHuman(signal: Hex | undefined, genesisMin: bigint, expiresAtMin: bigint) {
  return CredentialRequest("proof_of_human", { ...(signal ? { signal } : {}), genesis_issued_at_min: Number(genesisMin), expires_at_min: Number(expiresAtMin) });
}

/** A new session of this human for ORO. Its own proof is not used on chain: the session proof asked last is. */
async function createSession(sign: SignWorldIdRequest, genesisMin: bigint, chainNow: number): Promise<`session_${string}`> {
  const request = await IDKit.createSession({ app_id: appId(), rp_context: await sign("session") }).constraints(proofOfHuman(undefined, genesisMin, BigInt(chainNow)));
  const result = await completed(request);
  const idkitSessionId = result.session_id;
  if (typeof idkitSessionId !== "string") throw new WorldAppError("verify", "unexpected_proof_version");
  // sessionIdOf refuses anything but IDKit's session_<commitment><seed>.
  sessionIdOf(idkitSessionId);
  return idkitSessionId as `session_${string}`;
}

/**
 * The human's uniqueness proof for the enrolment action, its signal naming the receiver and the session, asked to
 * stay usable 30 days (so a late slide still lands). A credential that expires sooner cannot prove that: World App
 * answers `credential_unavailable` without disclosing anything, and the app asks again with the chain's now.
 */
async function uniquenessProof(receiver: Address, idkitSessionId: `session_${string}`, sign: SignWorldIdRequest, genesisMin: bigint, chainNow: number): Promise<UniquenessProof> {
  const signal = enrolmentSignalOf(receiver, sessionIdOf(idkitSessionId));
  const ask = async (expiresAtMin: number) => {
    const request = await IDKit.request({ app_id: appId(), action: enrolmentAction(), rp_context: await sign("enrolment"), allow_legacy_proofs: false }).constraints(
      proofOfHuman(signal, genesisMin, BigInt(expiresAtMin)),
    );
    const result = await completed(request);
    if (result.protocol_version !== "4.0") throw new WorldAppError("verify", "unexpected_proof_version");
    return uniquenessProofFromIdkit(firstItem(result) as unknown as IdkitUniquenessItem, result.nonce, genesisMin);
  };
  try {
    return await ask(chainNow + UNIQUENESS_EXPIRY_AHEAD_SECONDS);
  } catch (error) {
    if (!(error instanceof WorldAppError && error.code === "credential_unavailable")) throw error;
    return ask(chainNow);
  }
}

/**
 * Enrols in World ID 4.0: a new session, then the uniqueness proof naming it, kept at once (`keep`): World App will
 * not disclose it again. While 3.0 is open the genesis bound is the cut-off (a human with a 3.0 path moves instead).
 */
async function enrolWorldId4(receiver: Address, sign: SignWorldIdRequest, settings: WorldIdSettings, keep: KeepPending): Promise<WorldId4Verification> {
  const genesisMin = settings.worldId3Closed ? 0n : BigInt(settings.genesisCutoff);
  const idkitSessionId = await createSession(sign, genesisMin, settings.chainNow);
  const pending: PendingEnrolment = { kind: "enrol", idkitSessionId, uniqueness: await uniquenessProof(receiver, idkitSessionId, sign, genesisMin, settings.chainNow), worldId3: null };
  await keep(pending);
  return { version: "4.0", idkitSessionId, pending };
}

/**
 * Verifies the human for `receiver`: what is already known, else a 3.0 proof while 3.0 is open and World App still
 * makes one for them, else a 4.0 enrolment (a human verified since World ID 4.0, or anyone once 3.0 is closed).
 */
export async function verifyHuman(receiver: Address, sign: SignWorldIdRequest, context: VerifyContext): Promise<VerificationResult> {
  const known = await context.known().catch(() => null);
  if (known) return known;
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
  try {
    return await enrolWorldId4(receiver, sign, settings, context.keep);
  } catch (error) {
    // World App disclosed this human's enrolment before: it is kept somewhere we can read (the API answered late,
    // or the enrolment landed meanwhile), or it was made from another wallet.
    if (error instanceof WorldAppError && error.code === "nullifier_replayed") {
      const found = await context.known().catch(() => null);
      if (found) return found;
    }
    throw error;
  }
}

/** A fresh proof of the human's session (World App refuses a session it does not hold). */
async function proveSession(idkitSessionId: `session_${string}`, signal: Hex, genesisMin: bigint, expiresAtMin: bigint, sign: SignWorldIdRequest): Promise<SessionProof> {
  const idkit = await IDKit.proveSession(idkitSessionId, { app_id: appId(), rp_context: await sign("session") }).constraints(proofOfHuman(signal, genesisMin, expiresAtMin));
  const result = await completed(idkit);
  return sessionProofFromIdkit(idkitSessionId, firstItem(result) as unknown as IdkitSessionItem, result.nonce);
}

/**
 * The session proof of one claim to `receiver` (signal: the receiver). Its expiry floor must be later than the
 * session's last one (the contract's replay record), and not older than the verifier allows: the caller passes
 * max(chain now, last + 1).
 */
export function proveClaim(idkitSessionId: `session_${string}`, receiver: Address, expiresAtMin: bigint, sign: SignWorldIdRequest): Promise<SessionProof> {
  return proveSession(idkitSessionId, receiver, 0n, expiresAtMin, sign);
}

/**
 * The session proof that completes a pending enrolment (or, `asMove`, a move), asked for last: its signal names the
 * receiver, the session's seed, the 3.0 human it moves from (0 for none) and the 4.0 human, with the genesis bound the
 * uniqueness proof was made with (the contract checks both proofs against it).
 */
export function proveEnrolment(pending: PendingEnrolment, receiver: Address, asMove: boolean, chainNow: number, sign: SignWorldIdRequest): Promise<SessionProof> {
  const movedFrom = asMove ? (pending.worldId3?.nullifierHash ?? 0n) : 0n;
  const signal = enrolmentSessionSignalOf(receiver, sessionSeedOf(pending.idkitSessionId), movedFrom, pending.uniqueness.nullifier);
  return proveSession(pending.idkitSessionId, signal, pending.uniqueness.credentialGenesisIssuedAtMin, BigInt(chainNow), sign);
}

/**
 * The proofs of a 3.0 human's move, as far as they go: a new session and the uniqueness proof (no genesis bound: the
 * 3.0 proof is what closes the old path), kept at once, then a 3.0 proof whose signal names the receiver and the
 * session. A move already under way (`pending`) only lacks, at most, its 3.0 proof.
 */
export async function moveProofs(receiver: Address, sign: SignWorldIdRequest, chainNow: number, keep: KeepPending, pending: PendingEnrolment | null): Promise<PendingEnrolment> {
  let move = pending;
  if (!move) {
    const idkitSessionId = await createSession(sign, 0n, chainNow);
    move = { kind: "move", idkitSessionId, uniqueness: await uniquenessProof(receiver, idkitSessionId, sign, 0n, chainNow), worldId3: null };
    await keep(move);
  }
  if (move.worldId3) return move;
  const complete: PendingEnrolment = { ...move, worldId3: await verifyWorldId3(moveSignalOf(receiver, sessionIdOf(move.idkitSessionId)), sign) };
  await keep(complete);
  return complete;
}
