/**
 * The streak rule, per human (nullifier hash), with every time in unix seconds:
 * - a mint continues the streak when it comes no later than 2 × waitBetweenMints after the same human's
 *   previous mint, with the wait in force at that (new) mint; otherwise the streak restarts at 1;
 * - the current streak reads 0 once now > lastMintedAt + 2 × waitBetweenMints (it has lapsed), with the
 *   wait in force now, which is also the one the contract applies to the next mint;
 * - the longest streak is kept.
 * A rolling window never breaks the streak of a human who mints as soon as the contract allows.
 */

/** A human's streak as of their latest mint. */
export interface StreakAtMint {
  lastMintedAt: number;
  currentStreak: number;
  longestStreak: number;
}

/** A human's streak as someone sees it at a given moment. */
export interface StreakNow {
  currentStreak: number;
  longestStreak: number;
  lastMintedAt: number;
  /** When the contract lets this human mint again. */
  nextMintAt: number;
  /** The last moment at which a mint still continues the streak; after it the streak reads 0. */
  streakExpiresAt: number;
}

/** How long after a mint the next one still continues the streak. */
export function streakWindow(waitBetweenMints: number): number {
  return 2 * waitBetweenMints;
}

/** The streak after a mint at `mintedAt`, given the human's streak before it (undefined for a first mint). */
export function streakAfterMint(
  previous: StreakAtMint | undefined,
  mintedAt: number,
  waitBetweenMints: number,
): StreakAtMint {
  const continues = previous !== undefined && mintedAt - previous.lastMintedAt <= streakWindow(waitBetweenMints);
  const currentStreak = continues ? previous.currentStreak + 1 : 1;
  return {
    lastMintedAt: mintedAt,
    currentStreak,
    longestStreak: Math.max(previous?.longestStreak ?? 0, currentStreak),
  };
}

/** The streak as seen at `now`: zero once the window after the latest mint has passed. */
export function streakAt(latest: StreakAtMint, now: number, waitBetweenMints: number): StreakNow {
  const streakExpiresAt = latest.lastMintedAt + streakWindow(waitBetweenMints);
  return {
    currentStreak: now > streakExpiresAt ? 0 : latest.currentStreak,
    longestStreak: latest.longestStreak,
    lastMintedAt: latest.lastMintedAt,
    nextMintAt: latest.lastMintedAt + waitBetweenMints,
    streakExpiresAt,
  };
}

/**
 * "Now" for a streak: the wall clock, unless the chain runs ahead of it (a local chain moved forward with
 * evm_increaseTime), in which case the chain's time (its latest block, or the newest indexed event). A chain
 * never runs far behind.
 */
export function streakClock(wallClockSeconds: number, chainSeconds: number | undefined): number {
  return Math.max(Math.floor(wallClockSeconds), chainSeconds ?? 0);
}
