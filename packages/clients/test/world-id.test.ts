import { describe, expect, it } from "vitest";
import { encodePacked, keccak256 } from "viem";
import {
  buildDevProof,
  devNullifierHash,
  devSessionId,
  devSessionSeed,
  externalNullifierHashOf,
  hashToField,
  idkitSessionIdOf,
  isIdkitSessionId,
  sessionIdOf,
  sessionProofFromIdkit,
  sessionSeedOf,
  signalHashOf,
  uniquenessProofFromIdkit,
  nullifierHashToHex,
} from "../src/index.js";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const FIELD_BOUND = 1n << 248n;

describe("World ID hashing", () => {
  it("hashes to the field by dropping the low byte of keccak256", () => {
    const value = encodePacked(["address"], [ALICE]);
    expect(hashToField(value)).toBe(BigInt(keccak256(value)) >> 8n);
    expect(signalHashOf(ALICE)).toBe(hashToField(value));
    expect(signalHashOf(ALICE) < FIELD_BOUND).toBe(true);
  });

  it("derives the external nullifier from the app id and the action, so either change gives another", () => {
    const base = externalNullifierHashOf("app_staging_oro_local", "claim-tokens-action");
    expect(base < FIELD_BOUND).toBe(true);
    expect(externalNullifierHashOf("app_other", "claim-tokens-action")).not.toBe(base);
    expect(externalNullifierHashOf("app_staging_oro_local", "another-action")).not.toBe(base);
  });
});

describe("nullifierHashToHex", () => {
  it("writes a nullifier hash, from a bigint or any hex, as 0x plus 64 lower-case hex digits", () => {
    expect(nullifierHashToHex(255n)).toBe(`0x${"0".repeat(62)}ff`);
    expect(nullifierHashToHex("0xABCDEF")).toBe(`0x${"0".repeat(58)}abcdef`);
    expect(nullifierHashToHex(2n ** 256n - 1n)).toBe(`0x${"f".repeat(64)}`);
    expect(() => nullifierHashToHex(2n ** 256n)).toThrow();
  });
});

describe("development proofs", () => {
  const request = { receiver: ALICE, nullifierHash: devNullifierHash("alice"), appId: "app_x", action: "claim-tokens-action" } as const;

  it("are eight field elements with only the first one set", () => {
    const { proof } = buildDevProof(request);
    expect(proof).toHaveLength(8);
    expect(proof[0] < FIELD_BOUND && proof[0] > 0n).toBe(true);
    expect(proof.slice(1)).toEqual([0n, 0n, 0n, 0n, 0n, 0n, 0n]);
  });

  it("are deterministic and bind the receiver, the human, the app and the root", () => {
    const first = buildDevProof(request).proof[0];
    expect(buildDevProof(request).proof[0]).toBe(first);
    expect(buildDevProof({ ...request, receiver: BOB }).proof[0]).not.toBe(first);
    expect(buildDevProof({ ...request, nullifierHash: devNullifierHash("bob") }).proof[0]).not.toBe(first);
    expect(buildDevProof({ ...request, appId: "app_y" }).proof[0]).not.toBe(first);
    expect(buildDevProof({ ...request, root: 42n }).proof[0]).not.toBe(first);
  });

  it("name a stable human per name", () => {
    expect(devNullifierHash("alice")).toBe(devNullifierHash("alice"));
    expect(devNullifierHash("alice")).not.toBe(devNullifierHash("bob"));
  });
});

describe("World ID 4.0: IDKit's session ids and results", () => {
  const commitment = devSessionId("erin", 1n);
  const seed = devSessionSeed("erin", 1n);

  it("an IDKit session id is the commitment and the OPRF seed; the contract takes the commitment, the event records the seed", () => {
    const id = idkitSessionIdOf(commitment, seed);
    expect(id).toMatch(/^session_[0-9a-f]{64}01[0-9a-f]{62}$/);
    expect(sessionIdOf(id)).toBe(commitment);
    expect(sessionSeedOf(id)).toBe(seed);
  });

  it("refuses what World's own parser refuses: a seed without the session prefix byte 01, a wrong length", () => {
    expect(() => idkitSessionIdOf(commitment, seed ^ (3n << 248n))).toThrow(/prefix byte 01/);
    expect(isIdkitSessionId(`session_${"0".repeat(126)}`)).toBe(false);
    expect(() => sessionIdOf(`session_${"0".repeat(64)}02${"0".repeat(62)}`)).toThrow();
  });

  it("turns IDKit's uniqueness and session items (hex, decimal or nil_ strings) into the contract's proofs", () => {
    const hex = (value: bigint) => `0x${value.toString(16)}`;
    const uniqueness = uniquenessProofFromIdkit({ nullifier: `nil_${"0".repeat(62)}2a`, proof: ["1", "2", "3", "4", hex(5n)], expires_at_min: 1_800_000_000 }, "0x07", 1_780_272_000n);
    // The genesis bound is the request's, which IDKit does not echo: it travels with the proof.
    expect(uniqueness).toEqual({ nullifier: 42n, nonce: 7n, expiresAtMin: 1_800_000_000n, credentialGenesisIssuedAtMin: 1_780_272_000n, proof: [1n, 2n, 3n, 4n, 5n] });
    const id = idkitSessionIdOf(commitment, seed);
    const session = sessionProofFromIdkit(id, { session_nullifier: ["0x0b", hex(2n << 248n)], proof: ["1", "2", "3", "4", "5"], expires_at_min: 9 }, "12");
    expect(session).toEqual({ sessionId: commitment, sessionNullifier: [11n, 2n << 248n], nonce: 12n, expiresAtMin: 9n, proof: [1n, 2n, 3n, 4n, 5n] });
    expect(() => uniquenessProofFromIdkit({ nullifier: "0x1", proof: ["1", "2", "3", "4"], expires_at_min: 1 }, "1", 0n)).toThrow(/5 elements/);
    expect(() => uniquenessProofFromIdkit({ nullifier: "zz", proof: ["1", "2", "3", "4", "5"], expires_at_min: 1 }, "1", 0n)).toThrow(/not a number/);
  });
});
