import { afterEach, describe, expect, it, vi } from "vitest";
import { CheckTimedOutError, sharedCheck } from "../src/lib/shared-check.js";

/** A check whose runs the test settles by hand. */
function controlledCheck() {
  const runs: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const check = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ resolve, reject });
    });
  return { check, runs };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("sharedCheck", () => {
  it("runs one check for every caller that comes while it runs, and reuses its outcome while it is fresh", async () => {
    vi.useFakeTimers();
    const { check, runs } = controlledCheck();
    const current = sharedCheck({ check, freshMs: 1_000, timeoutMs: 2_000 });
    const waiting = Array.from({ length: 50 }, () => Promise.resolve(current()));
    expect(runs).toHaveLength(1);
    runs[0]?.resolve();
    const outcomes = await Promise.all(waiting);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(current()).toMatchObject({ ok: true });
    expect(runs).toHaveLength(1);
    // Past the interval the next caller runs it again, once.
    await vi.advanceTimersByTimeAsync(1);
    const again = [Promise.resolve(current()), Promise.resolve(current())];
    expect(runs).toHaveLength(2);
    runs[1]?.reject(new Error("connection refused"));
    const failed = await Promise.all(again);
    expect(failed.map((outcome) => outcome.ok)).toEqual([false, false]);
  });

  it("fails a check that does not answer in time, tries again after the interval, and never has more than three running", async () => {
    vi.useFakeTimers();
    const { check, runs } = controlledCheck();
    const current = sharedCheck({ check, freshMs: 1_000, timeoutMs: 2_000 });
    const first = current();
    await vi.advanceTimersByTimeAsync(2_000);
    const outcome = await first;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toBeInstanceOf(CheckTimedOutError);
    // Its failure is reused for the interval; then a second check runs beside the hung one, then a third.
    expect(current()).toMatchObject({ ok: false });
    expect(runs).toHaveLength(1);
    for (const running of [2, 3]) {
      await vi.advanceTimersByTimeAsync(1_000);
      const next = current();
      expect(runs).toHaveLength(running);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await next).toMatchObject({ ok: false });
    }
    // Three hang: callers get the last failure, and no fourth query piles up.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(current()).toMatchObject({ ok: false });
    expect(runs).toHaveLength(3);
    // One settles (late, whatever it says): the next caller checks again, and a database that answers is ready at once.
    runs[0]?.resolve();
    await vi.advanceTimersByTimeAsync(0);
    const next = current();
    expect(runs).toHaveLength(4);
    runs[3]?.resolve();
    expect(await next).toMatchObject({ ok: true });
  });

  it("counts a check that throws at once as failed", async () => {
    const current = sharedCheck({
      check: () => {
        throw new Error("no pool");
      },
      freshMs: 1_000,
      timeoutMs: 2_000,
    });
    expect(await current()).toMatchObject({ ok: false, error: new Error("no pool") });
  });
});
