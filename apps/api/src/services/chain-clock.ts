/**
 * "Now" for things the chain decides (when a claim opens): the machine's clock, or the chain's when it runs
 * ahead of it. World Chain's blocks follow the wall clock, so in production this is the wall clock; a local
 * chain moved forward with evm_increaseTime (the World App simulator's +24 h) runs ahead, and a reminder due at
 * the next claim must go out when the chain says the claim is open.
 *
 * The chain's time is read in the background, at most every `refreshMs`, and carried forward with the wall
 * clock in between: asking for now never waits for the chain, and an unreachable chain means the wall clock.
 */
export interface ChainClock {
  now(): Date;
}

export function createChainClock(readLatestBlockSeconds: () => Promise<number>, refreshMs = 5_000): ChainClock {
  let seen: { chainMs: number; at: number } | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading = false;

  function refresh(wall: number): void {
    if (reading || wall - readAt < refreshMs) return;
    reading = true;
    readAt = wall;
    readLatestBlockSeconds()
      .then((seconds) => {
        seen = { chainMs: seconds * 1000, at: Date.now() };
      })
      .catch(() => undefined)
      .finally(() => {
        reading = false;
      });
  }

  return {
    now() {
      const wall = Date.now();
      refresh(wall);
      if (!seen) return new Date(wall);
      return new Date(Math.max(wall, seen.chainMs + (wall - seen.at)));
    },
  };
}

/** The wall clock alone (tests, and wherever no chain is configured). */
export const wallClock: ChainClock = { now: () => new Date() };
