import { oroAbi } from "@oro/clients";
import { encodeErrorResult, type Abi } from "viem";
import { describe, expect, it } from "vitest";
import { refusalOf } from "../src/lib/claim-refusal";

const tokenErrors: Abi = oroAbi;
const revert = (errorName: string, args: readonly unknown[] = []) => encodeErrorResult({ abi: tokenErrors, errorName, args });

describe("refusalOf: the contract's error, in the person's words", () => {
  it("names each of the token's claim errors", () => {
    expect(refusalOf(revert("NotEnoughTimeSinceLastMint", [1n, 86_400n]))).toBe("tooEarly");
    expect(refusalOf(revert("MintingKilled"))).toBe("paused");
    for (const [name, args] of [
      ["WorldId3IsClosed", []],
      ["MovedToWorldId4", [7n]],
      ["UnknownSession", [7n]],
      ["InvalidSessionId", []],
      ["SessionAlreadyEnrolled", [7n]],
    ] as const) {
      expect(refusalOf(revert(name, args)), name).toBe("verifyAgain");
    }
    // The human enrolled with another session: told where they joined (their kept enrolment can never land).
    expect(refusalOf(revert("HumanAlreadyEnrolled", [7n]))).toBe("alreadyJoined");
    for (const [name, args] of [
      ["SessionNullifierReplayed", []],
      ["StaleSessionProof", [2n, 3n]],
      ["InvalidWorldId", []],
    ] as const) {
      expect(refusalOf(revert(name, args)), name).toBe("proofRefused");
    }
  });

  it("takes an error it cannot read (World ID's verifier's own) as a refused proof", () => {
    expect(refusalOf("0xdeadbeef")).toBe("proofRefused");
    expect(refusalOf("0x")).toBe("proofRefused");
  });
});
