/** The claim screen's six states (spec section 2). */
export const CLAIM_VIEWS = ["signedOut", "notVerified", "ready", "notReady", "claiming", "success"] as const;
export type ClaimView = (typeof CLAIM_VIEWS)[number];

/** idle → requested (slider released, wallet asked) → confirming (sent) → success; an error returns to idle. */
export type ClaimPhase = "idle" | "requested" | "confirming" | "success";

export interface ClaimViewInput {
  signedIn: boolean;
  verified: boolean;
  ready: boolean;
  phase: ClaimPhase;
}

export function claimViewOf({ signedIn, verified, ready, phase }: ClaimViewInput): ClaimView {
  if (!signedIn) return "signedOut";
  if (phase === "success") return "success";
  if (phase === "confirming") return "claiming";
  if (!verified) return "notVerified";
  // While the wallet shows its confirmation, the (disabled) slider stays in place.
  if (phase === "requested") return "ready";
  return ready ? "ready" : "notReady";
}
