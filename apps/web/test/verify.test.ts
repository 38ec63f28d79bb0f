import { enrolmentSessionSignalOf, enrolmentSignalOf, idkitSessionIdOf, moveSignalOf, sessionIdOf, sessionSeedOf } from "@oro/clients";
import { encodeAbiParameters } from "viem";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { WorldAppError } from "../src/lib/world-app/errors";
import { moveProofs, proveClaim, proveEnrolment, verifyHuman, type PendingEnrolment, type VerifyContext } from "../src/lib/world-app/verify";
import { USER } from "./fakes";

/**
 * The IDKit requests World ID 4.0 verification makes, in their order, against a stand-in for IDKit that answers as
 * World App does (results shaped as IDKit 4.2 returns them) and records every request and its constraints.
 */
interface Asked {
  kind: "request" | "createSession" | "proveSession";
  action?: string;
  sessionId?: string;
  constraints?: Record<string, unknown>;
  preset?: Record<string, unknown>;
}
const asked: Asked[] = [];
/** World App's answers, in order; an Error is a failed completion with its code. */
let answers: (Record<string, unknown> | WorldAppError)[] = [];

vi.mock("@worldcoin/idkit", () => {
  const builder = (base: Asked) => {
    const complete = (extra: Partial<Asked>) => {
      asked.push({ ...base, ...extra });
      const next = answers.shift();
      if (!next) throw new Error(`nothing to answer ${base.kind}`);
      return Promise.resolve({
        pollUntilCompletion: () => Promise.resolve(next instanceof WorldAppError ? { success: false, error: next.code } : { success: true, result: next }),
      });
    };
    return { constraints: (constraints: Record<string, unknown>) => complete({ constraints }), preset: (preset: Record<string, unknown>) => complete({ preset }) };
  };
  return {
    IDKit: {
      request: (config: { action: string }) => builder({ kind: "request", action: config.action }),
      createSession: () => builder({ kind: "createSession" }),
      proveSession: (sessionId: string) => builder({ kind: "proveSession", sessionId }),
    },
    CredentialRequest: (type: string, options: Record<string, unknown>) => ({ type, ...options }),
    orbLegacy: (options: Record<string, unknown>) => ({ preset: "orbLegacy", ...options }),
  };
});

const CHAIN_NOW = 1_800_000_000;
const CUTOFF = 1_780_272_000;
const SESSION = idkitSessionIdOf(0xabcn, (1n << 248n) | 0x5eedn);
const hex = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`;
const proof5 = ["0x1", "0x2", "0x3", "0x4", "0x5"];

const session = { protocol_version: "4.0", nonce: "0x07", session_id: SESSION, responses: [{ session_nullifier: ["0x0b", hex(2n << 248n)], proof: proof5, expires_at_min: CHAIN_NOW }] };
const uniqueness = (expiresAtMin: number) => ({ protocol_version: "4.0", nonce: "0x09", responses: [{ nullifier: hex(0x4a11n), proof: proof5, expires_at_min: expiresAtMin }] });
const legacy = { protocol_version: "3.0", nonce: "0x01", responses: [{ merkle_root: "0x1234", nullifier: hex(0x3a11n), proof: encodeAbiParameters([{ type: "uint256[8]" }], [[1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]]) }] };

const sign = () => Promise.resolve({ rp_id: "rp_0000000000007a69", nonce: "0x01", created_at: 0, expires_at: 1, signature: "0x" });

function context(overrides: Partial<VerifyContext> = {}) {
  const kept: PendingEnrolment[] = [];
  const known = vi.fn<VerifyContext["known"]>(() => Promise.resolve(null));
  const ctx: VerifyContext = {
    settings: () => Promise.resolve({ worldId3Closed: false, genesisCutoff: CUTOFF, chainNow: CHAIN_NOW }),
    known,
    keep: (pending) => {
      kept.push(pending);
      return Promise.resolve();
    },
    ...overrides,
  };
  return { ctx, kept, known };
}

beforeAll(() => {
  // Inside World App (not the development wallet).
  Object.assign(window, { WorldApp: { supported_commands: [] } });
});

beforeEach(() => {
  asked.length = 0;
  answers = [];
});

describe("verifying a human new under World ID 4.0", () => {
  it("asks for a 3.0 proof, then a new session, then the uniqueness proof naming receiver and session for 30 days with the cut-off; keeps it before answering", async () => {
    answers = [new WorldAppError("verify", "world_id_3_not_available"), session, uniqueness(CHAIN_NOW + 30 * 86_400)];
    const { ctx, kept } = context();
    const result = await verifyHuman(USER, sign, ctx);
    expect(asked.map((each) => each.kind)).toEqual(["request", "createSession", "request"]);
    expect(asked[2]).toMatchObject({
      action: "oro-enrolment",
      constraints: { type: "proof_of_human", signal: enrolmentSignalOf(USER, sessionIdOf(SESSION)), genesis_issued_at_min: CUTOFF, expires_at_min: CHAIN_NOW + 30 * 86_400 },
    });
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ kind: "enrol", idkitSessionId: SESSION, uniqueness: { nullifier: 0x4a11n, credentialGenesisIssuedAtMin: BigInt(CUTOFF), expiresAtMin: BigInt(CHAIN_NOW + 30 * 86_400) } });
    expect(result).toEqual({ version: "4.0", idkitSessionId: SESSION, pending: kept[0] });
  });

  it("a credential that expires within 30 days: after World App's credential_unavailable it asks again with the chain's now", async () => {
    answers = [new WorldAppError("verify", "world_id_3_not_available"), session, new WorldAppError("verify", "credential_unavailable"), uniqueness(CHAIN_NOW)];
    const { ctx, kept } = context();
    await verifyHuman(USER, sign, ctx);
    expect(asked.slice(2).map((each) => each.constraints?.expires_at_min)).toEqual([CHAIN_NOW + 30 * 86_400, CHAIN_NOW]);
    expect(kept.map((each) => each.uniqueness.expiresAtMin)).toEqual([BigInt(CHAIN_NOW)]);
  });

  it("once 3.0 is closed: no 3.0 request, and no genesis bound", async () => {
    answers = [session, uniqueness(CHAIN_NOW + 30 * 86_400)];
    const { ctx, kept } = context({ settings: () => Promise.resolve({ worldId3Closed: true, genesisCutoff: CUTOFF, chainNow: CHAIN_NOW }) });
    await verifyHuman(USER, sign, ctx);
    expect(asked.map((each) => each.kind)).toEqual(["createSession", "request"]);
    expect(asked[1]?.constraints?.genesis_issued_at_min).toBe(0);
    expect(kept[0]?.uniqueness.credentialGenesisIssuedAtMin).toBe(0n);
  });

  it("what is already known needs no prompt; after nullifier_replayed it is asked again, and only then is the refusal the person's", async () => {
    const found = { version: "4.0" as const, idkitSessionId: SESSION, pending: null };
    expect(await verifyHuman(USER, sign, context({ known: () => Promise.resolve(found) }).ctx)).toBe(found);
    expect(asked).toHaveLength(0);

    answers = [new WorldAppError("verify", "world_id_3_not_available"), session, new WorldAppError("verify", "nullifier_replayed")];
    const second = context();
    second.known.mockResolvedValueOnce(null).mockResolvedValueOnce(found);
    expect(await verifyHuman(USER, sign, second.ctx)).toBe(found);
    expect(second.known).toHaveBeenCalledTimes(2);

    answers = [new WorldAppError("verify", "world_id_3_not_available"), session, new WorldAppError("verify", "nullifier_replayed")];
    await expect(verifyHuman(USER, sign, context().ctx)).rejects.toMatchObject({ code: "nullifier_replayed" });
  });
});

describe("a 3.0 human's move", () => {
  it("keeps the uniqueness proof before World App's 3.0 prompt; a rejected 3.0 prompt leaves it kept; finishing asks only for the 3.0 proof", async () => {
    answers = [session, uniqueness(CHAIN_NOW + 30 * 86_400), new WorldAppError("verify", "user_rejected")];
    const { ctx, kept } = context();
    await expect(moveProofs(USER, sign, CHAIN_NOW, ctx.keep, null)).rejects.toMatchObject({ code: "user_rejected" });
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ kind: "move", worldId3: null, uniqueness: { credentialGenesisIssuedAtMin: 0n } });
    expect(asked[1]?.constraints?.genesis_issued_at_min).toBe(0);

    asked.length = 0;
    answers = [legacy];
    const pending = kept[0];
    if (!pending) throw new Error("nothing kept");
    const complete = await moveProofs(USER, sign, CHAIN_NOW, ctx.keep, pending);
    expect(asked).toEqual([{ kind: "request", action: "claim-tokens-action", preset: { preset: "orbLegacy", signal: moveSignalOf(USER, sessionIdOf(SESSION)) } }]);
    expect(complete.worldId3).toMatchObject({ version: "3.0", nullifierHash: 0x3a11n });
    expect(kept).toHaveLength(2);
  });
});

describe("session proofs", () => {
  const pending: PendingEnrolment = {
    kind: "move",
    idkitSessionId: SESSION,
    uniqueness: { nullifier: 0x4a11n, nonce: 9n, expiresAtMin: 1n, credentialGenesisIssuedAtMin: 123n, proof: [1n, 2n, 3n, 4n, 5n] },
    worldId3: { version: "3.0", merkleRoot: 1n, nullifierHash: 0x3a11n, proof: [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n] },
  };

  it("completing an enrolment or a move names receiver, seed, 3.0 human (or 0) and 4.0 human, with the uniqueness proof's genesis bound", async () => {
    answers = [session, session];
    await proveEnrolment(pending, USER, true, CHAIN_NOW, sign);
    await proveEnrolment(pending, USER, false, CHAIN_NOW, sign);
    const seed = sessionSeedOf(SESSION);
    expect(asked.map((each) => each.constraints)).toEqual([
      { type: "proof_of_human", signal: enrolmentSessionSignalOf(USER, seed, 0x3a11n, 0x4a11n), genesis_issued_at_min: 123, expires_at_min: CHAIN_NOW },
      { type: "proof_of_human", signal: enrolmentSessionSignalOf(USER, seed, 0n, 0x4a11n), genesis_issued_at_min: 123, expires_at_min: CHAIN_NOW },
    ]);
    expect(asked.every((each) => each.kind === "proveSession" && each.sessionId === SESSION)).toBe(true);
  });

  it("a claim's names the receiver, with the floor it is given", async () => {
    answers = [session];
    const proof = await proveClaim(SESSION, USER, BigInt(CHAIN_NOW + 1), sign);
    expect(asked[0]?.constraints).toEqual({ type: "proof_of_human", signal: USER, genesis_issued_at_min: 0, expires_at_min: CHAIN_NOW + 1 });
    expect(proof.sessionId).toBe(sessionIdOf(SESSION));
  });
});
