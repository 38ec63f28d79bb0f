import type { Hex } from "viem";

/**
 * The referral programme's rules, per human (World ID nullifier hash), not per wallet. Each rule is one
 * function here; `decideActivation` applies them, in this order, when the referee's first mint is seen.
 * The database holds what a constraint can say (prisma/migrations/20261220000000_referrals_per_human).
 */

/** Why a referral was refused. Stored in `referral.rejection_reason`. */
export const REJECTION = {
  /** The referee's human also minted to the referrer's wallet: one human on both sides. */
  selfReferralSameHuman: "SELF_REFERRAL_SAME_HUMAN",
  /** Another referral already holds the referee's human. */
  humanAlreadyReferred: "HUMAN_ALREADY_REFERRED",
  /** The referee's human had minted (to any wallet) before the invite was accepted. */
  refereeMintedBeforeAcceptance: "REFEREE_MINTED_BEFORE_ACCEPTANCE",
  /** Still waiting (or the referee's human first minted) past REFERRAL_PENDING_TTL after the acceptance. */
  pendingExpired: "PENDING_EXPIRED",
} as const;
export type RejectionReason = (typeof REJECTION)[keyof typeof REJECTION];

/** Why a referral stays pending. */
export const WAITING = {
  /** Nobody has minted to the referee's wallet yet: its human is unknown. */
  refereeHumanUnknown: "REFEREE_HUMAN_UNKNOWN",
  /** Nobody has minted to the referrer's wallet yet: a referrer is paid only once a human is behind it. */
  referrerNotVerified: "REFERRER_NOT_VERIFIED",
} as const;
export type WaitingReason = (typeof WAITING)[keyof typeof WAITING];

/**
 * One referral per referee human: the unique index that says it (on the referee's nullifier hash, over
 * referrals that are not rejected). A write it refuses means the human is taken.
 */
export const ONE_REFERRAL_PER_HUMAN_INDEX = "referral_referee_human_key";

/** Rule: a referrer is paid only when the referrer's wallet belongs to a human who has minted. */
export function referrerIsVerified(referrerHumans: ReadonlySet<Hex>): boolean {
  return referrerHumans.size > 0;
}

/** Rule: the referrer's human and the referee's human differ (any human behind either wallet). */
export function sameHumanOnBothSides(referrerHumans: ReadonlySet<Hex>, refereeHumans: ReadonlySet<Hex>): boolean {
  for (const human of refereeHumans) if (referrerHumans.has(human)) return true;
  return false;
}

/**
 * Rule: a referee human is eligible only if that human (through any wallet) had not minted before the
 * acceptance, or the referee's human is on the allow-list (on whichever wallet). Block times are whole seconds: a mint in the
 * second of the acceptance counts as after it.
 */
export function refereeHumanEligible(input: { firstMintedAt: number | null; acceptedAt: Date; allowListed: boolean }): boolean {
  if (input.allowListed || input.firstMintedAt === null) return true;
  return input.firstMintedAt >= Math.floor(input.acceptedAt.getTime() / 1000);
}

/** What the chain (through the indexer) says about a pending referral's two wallets. */
export interface ActivationFacts {
  /** The human the referral holds, else the human behind the referee's wallet (humanBehindWallet); null while nobody has minted to it. */
  refereeHuman: Hex | null;
  /** Every human that minted to the referee's wallet. */
  refereeHumans: ReadonlySet<Hex>;
  /** When the referee's human first minted, to any wallet (unix seconds). */
  refereeFirstMintedAt: number | null;
  /** Every human that minted to the referrer's wallet. */
  referrerHumans: ReadonlySet<Hex>;
  acceptedAt: Date;
  /** The referee's human is on the allow-list. */
  refereeAllowListed: boolean;
}

export type ActivationDecision =
  | { kind: "wait"; reason: WaitingReason }
  | { kind: "reject"; reason: RejectionReason }
  | { kind: "pay"; refereeHuman: Hex; referrerHuman: Hex };

/**
 * Rule: a pending referral has an end. Past `expiresAt`, a referral the rules would keep waiting is refused, and so
 * is one whose referee's human first minted only after it (a mint in time, seen late, still pays). Judged at the
 * first check after the end, so that an indexer that lagged does not cost anyone their reward.
 */
export function expiredWhilePending(decision: ActivationDecision, facts: ActivationFacts, expiresAt: Date, now: Date): boolean {
  if (now < expiresAt || decision.kind === "reject") return false;
  if (decision.kind === "wait") return true;
  return facts.refereeFirstMintedAt !== null && facts.refereeFirstMintedAt * 1000 >= expiresAt.getTime();
}

/**
 * The rules in order. One referral per human is not decided here but by the database (the index above),
 * because two referrals of one human can be activated at the same moment.
 */
export function decideActivation(facts: ActivationFacts): ActivationDecision {
  if (facts.refereeHuman === null) return { kind: "wait", reason: WAITING.refereeHumanUnknown };
  if (sameHumanOnBothSides(facts.referrerHumans, facts.refereeHumans)) return { kind: "reject", reason: REJECTION.selfReferralSameHuman };
  const eligible = refereeHumanEligible({
    firstMintedAt: facts.refereeFirstMintedAt,
    acceptedAt: facts.acceptedAt,
    allowListed: facts.refereeAllowListed,
  });
  if (!eligible) return { kind: "reject", reason: REJECTION.refereeMintedBeforeAcceptance };
  const [referrerHuman] = facts.referrerHumans;
  if (!referrerIsVerified(facts.referrerHumans) || referrerHuman === undefined) {
    return { kind: "wait", reason: WAITING.referrerNotVerified };
  }
  return { kind: "pay", refereeHuman: facts.refereeHuman, referrerHuman };
}
