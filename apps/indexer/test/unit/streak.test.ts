import { describe, expect, it } from "vitest";
import { streakAfterMint, streakAt, streakClock, type StreakAtMint } from "../../src/lib/streak";

const DAY = 86_400;

/** Folds a human's mints (time, wait in force at that mint) into their streak. */
function mintsOf(...mints: [at: number, wait: number][]): StreakAtMint {
  let streak: StreakAtMint | undefined;
  for (const [at, wait] of mints) streak = streakAfterMint(streak, at, wait);
  if (!streak) throw new Error("no mints");
  return streak;
}

describe("streakAfterMint", () => {
  it("starts at 1 on a human's first mint", () => {
    expect(streakAfterMint(undefined, 1_000, DAY)).toEqual({ lastMintedAt: 1_000, currentStreak: 1, longestStreak: 1 });
  });

  it("continues when the next mint comes as soon as allowed", () => {
    expect(mintsOf([0, DAY], [DAY, DAY], [2 * DAY, DAY]).currentStreak).toBe(3);
  });

  it("continues at exactly 2 × wait after the previous mint", () => {
    expect(mintsOf([0, DAY], [2 * DAY, DAY])).toEqual({ lastMintedAt: 2 * DAY, currentStreak: 2, longestStreak: 2 });
  });

  it("restarts at 1 one second past 2 × wait, keeping the longest", () => {
    expect(mintsOf([0, DAY], [DAY, DAY], [3 * DAY + 1, DAY])).toEqual({
      lastMintedAt: 3 * DAY + 1,
      currentStreak: 1,
      longestStreak: 2,
    });
  });

  it("judges a mint by the wait in force at that mint when the wait changed in between", () => {
    // Gap of 3 days: too long under a 1-day wait, within 2 × 2 days once the owner doubled the wait.
    expect(mintsOf([0, DAY], [3 * DAY, 2 * DAY]).currentStreak).toBe(2);
    // Gap of 1.5 days: fine under the old 1-day wait, too long once the wait was cut to 12 hours.
    expect(mintsOf([0, DAY], [1.5 * DAY, DAY / 2]).currentStreak).toBe(1);
  });

  it("keeps the longest streak through later, shorter ones", () => {
    const streak = mintsOf([0, DAY], [DAY, DAY], [2 * DAY, DAY], [10 * DAY, DAY], [11 * DAY, DAY]);
    expect(streak).toMatchObject({ currentStreak: 2, longestStreak: 3 });
  });

  it("follows the human, whichever wallet receives the mint", () => {
    // The rule only sees the human's mint times: receiving addresses play no part.
    const toFirstWallet = streakAfterMint(undefined, 0, DAY);
    const toSecondWallet = streakAfterMint(toFirstWallet, DAY, DAY);
    expect(toSecondWallet.currentStreak).toBe(2);
  });
});

describe("streakAt", () => {
  const latest = mintsOf([0, DAY], [DAY, DAY]); // streak 2, last mint at DAY

  it("reports the next mint one wait after the last, and the expiry two waits after", () => {
    expect(streakAt(latest, DAY + 10, DAY)).toEqual({
      currentStreak: 2,
      longestStreak: 2,
      lastMintedAt: DAY,
      nextMintAt: 2 * DAY,
      streakExpiresAt: 3 * DAY,
    });
  });

  it("still counts the streak at the expiry instant and reads 0 one second later", () => {
    expect(streakAt(latest, 3 * DAY, DAY).currentStreak).toBe(2);
    expect(streakAt(latest, 3 * DAY + 1, DAY)).toMatchObject({ currentStreak: 0, longestStreak: 2 });
  });

  it("uses the wait in force now for lapse and next mint", () => {
    expect(streakAt(latest, 4 * DAY, 2 * DAY)).toMatchObject({ currentStreak: 2, nextMintAt: 3 * DAY, streakExpiresAt: 5 * DAY });
    expect(streakAt(latest, 2 * DAY + 1, DAY / 2).currentStreak).toBe(0);
  });
});

describe("streakClock", () => {
  it("uses the wall clock, or the chain's time when the chain runs ahead", () => {
    expect(streakClock(1_000.9, 900)).toBe(1_000);
    expect(streakClock(1_000, 5_000)).toBe(5_000);
    expect(streakClock(1_000, undefined)).toBe(1_000);
  });
});
