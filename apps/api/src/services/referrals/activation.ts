import { createActivationDecision, type ActivationOptions } from "./activation-decision.js";
import { createActivationSweep } from "./activation-sweep.js";

export type { ActivationOptions, ActivationOutcome, RewardRule } from "./activation-decision.js";

export type ReferralActivation = ReturnType<typeof createReferralActivation>;

/**
 * Activation at the first mint: a pending referral is decided (activation-decision.ts) when a mint of either wallet
 * is followed, and by the worker's sweep (activation-sweep.ts) for those still pending.
 */
export function createReferralActivation(options: ActivationOptions) {
  const { activate } = createActivationDecision(options);
  return { activate, ...createActivationSweep({ prisma: options.prisma, log: options.log, activate }) };
}
