import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineExceededError, startDeadline } from "../src/lib/deadline.js";

describe("a request's deadline", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers with the work's answer, or with DeadlineExceededError once the time left has passed", async () => {
    vi.useFakeTimers();
    const deadline = startDeadline(1_000);
    await expect(deadline.run(() => Promise.resolve("answer"))).resolves.toBe("answer");
    const slow = deadline.run(() => new Promise(() => undefined));
    const settled = expect(slow).rejects.toBeInstanceOf(DeadlineExceededError);
    await vi.advanceTimersByTimeAsync(1_000);
    await settled;
    await expect(deadline.run(() => Promise.resolve("late"))).rejects.toBeInstanceOf(DeadlineExceededError);
  });

  it("answers a work that throws before returning its promise with that error, and leaves no timer behind", async () => {
    // A client method that is not async (a test double of the indexer) throws at once: CI saw the deadline's own
    // rejection fire 3 s later with nobody listening (an unhandled rejection, which ends a Node.js process).
    vi.useFakeTimers();
    const refused = new Error("indexer is down");
    const answer = startDeadline(3_000).run((): Promise<never> => {
      throw refused;
    });
    await expect(answer).rejects.toBe(refused);
    expect(vi.getTimerCount()).toBe(0);
  });
});
