import type { ApiSchemas } from "@oro/clients";
import { REFERRAL_CLAIM, USER } from "./fakes";
import type { renderApp } from "./render-app";

// The share screen's invites and earnings as the API answers them, and the earnings reads the app made.
export const ORO = 1_000_000_000_000_000_000n;
export const iso = (secondsAgo: number, now = Date.now()) => new Date(now - secondsAgo * 1000).toISOString();

export function voucher(nonce: number, amount = ORO): ApiSchemas["ClaimableSignature"] {
  return { contractAddress: REFERRAL_CLAIM, message: { account: USER, amount: amount.toString(), nonce: String(nonce) }, signature: "0x5e" };
}

export type Entry = ApiSchemas["ReferredUser"];
/** `now`: the moment `secondsAgo` counts back from (a history served a page at a time keeps one). */
export const invite = (username: string | null, paymentType: "claimable" | "auto", hasClaimed: boolean, secondsAgo: number, nonce: number, now?: number): Entry => ({
  userId: `u-${nonce}`,
  username,
  paymentType,
  paymentAmountWei: ORO.toString(),
  hasClaimed,
  updatedAt: iso(secondsAgo, now),
  ...(paymentType === "claimable" ? { claimableSignature: voucher(nonce) } : {}),
});

export function earnings(overrides: Partial<ApiSchemas["OroEarned"]> = {}): ApiSchemas["OroEarned"] {
  const usersReferred = overrides.usersReferred ?? [];
  return { totalOroEarnedWei: "0", rewardForBeingReferee: null, referredByUsername: null, refereeRewardPending: false, usersReferredCount: usersReferred.length, nextCursor: null, ...overrides, usersReferred };
}

export const earningsCalls = (app: ReturnType<typeof renderApp>) => app.fakes.calls.filter((call) => call.name === "getReferralEarnings");
export const bustedReads = (app: ReturnType<typeof renderApp>) =>
  earningsCalls(app).filter((call) => (call.args[1] as { forceBustCache: boolean }).forceBustCache);
