/**
 * "Now" for things the chain decides (when a claim opens): the machine's clock, or the chain's when it runs
 * ahead of it. World Chain's blocks follow the wall clock, so in production this is the wall clock; a local
 * chain moved forward with evm_increaseTime (the World App simulator's +24 h) runs ahead, and a reminder due at
 * the next claim must go out when the chain says the claim is open.
 *
 * The chain's time is read in the background, at most every `refreshMs`, and carried forward with the wall
 * clock in between: asking for now never waits for the chain, and an unreachable chain means the wall clock.
 * `current()` reads the chain at once instead, for a caller that would refuse something dated after `now()`
 * (a sign-in message from a phone whose clock follows a chain moved a moment ago).
 */
export interface ChainClock {
  now(): Date;
  /** Now, with the chain read at once (within `timeoutMs`; past it, or with the chain down, what `now()` says). */
  current(timeoutMs?: number): Promise<Date>;
}

export function createChainClock(readLatestBlockSeconds: () => Promise<number>, refreshMs = 5_000): ChainClock {
  let seen: { chainMs: number; at: number } | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading = false;

  function read(): Promise<void> {
    return readLatestBlockSeconds().then((seconds) => {
      seen = { chainMs: seconds * 1000, at: Date.now() };
    });
  }

  function refresh(wall: number): void {
    if (reading || wall - readAt < refreshMs) return;
    reading = true;
    readAt = wall;
    read()
      .catch(() => undefined)
      .finally(() => {
        reading = false;
      });
  }

  function now(): Date {
    const wall = Date.now();
    refresh(wall);
    if (!seen) return new Date(wall);
    return new Date(Math.max(wall, seen.chainMs + (wall - seen.at)));
  }

  return {
    now,
    async current(timeoutMs = 2_000) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([read().catch(() => undefined), deadline]);
      clearTimeout(timer);
      return now();
    },
  };
}

/** The wall clock alone (tests, and wherever no chain is configured). */
export const wallClock: ChainClock = { now: () => new Date(), current: () => Promise.resolve(new Date()) };
