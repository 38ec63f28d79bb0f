import { describe, expect, it } from "vitest";
import { claimViewOf } from "../src/features/claim/claim-view";
import { isClaimReady } from "../src/features/claim/use-claim-readiness";

describe("claim state", () => {
  it.each([
    [{ signedIn: false, verified: false, ready: false, phase: "idle" }, "signedOut"],
    [{ signedIn: false, verified: true, ready: true, phase: "idle" }, "signedOut"],
    [{ signedIn: true, verified: false, ready: false, phase: "idle" }, "notVerified"],
    [{ signedIn: true, verified: true, ready: true, phase: "idle" }, "ready"],
    [{ signedIn: true, verified: true, ready: false, phase: "idle" }, "notReady"],
    [{ signedIn: true, verified: true, ready: true, phase: "requested" }, "ready"],
    [{ signedIn: true, verified: true, ready: true, phase: "confirming" }, "claiming"],
    [{ signedIn: true, verified: true, ready: false, phase: "success" }, "success"],
  ] as const)("%o is %s", (input, view) => {
    expect(claimViewOf(input)).toBe(view);
  });
});

describe("readiness", () => {
  it("is ready at and after the next mint time, not before", () => {
    expect(isClaimReady(1000, 999)).toBe(false);
    expect(isClaimReady(1000, 1000)).toBe(true);
    expect(isClaimReady(1000, 5000)).toBe(true);
  });
  it("is not ready without a next mint time", () => {
    expect(isClaimReady(null, 5000)).toBe(false);
    expect(isClaimReady(undefined, 5000)).toBe(false);
  });
});
