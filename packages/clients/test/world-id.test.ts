import { describe, expect, it } from "vitest";
import { encodePacked, keccak256 } from "viem";
import { buildDevProof, devNullifierHash, externalNullifierHashOf, hashToField, signalHashOf } from "../src/index.js";

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
