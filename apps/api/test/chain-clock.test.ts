import { afterEach, describe, expect, it, vi } from "vitest";
import { createChainClock } from "../src/services/chain/chain-clock.js";

afterEach(() => {
  vi.useRealTimers();
});

/** Lets the background read settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the chain clock (when reminders are due)", () => {
  it("is the wall clock until the chain has answered, and when the chain is behind it", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000_000 });
    const clock = createChainClock(() => Promise.resolve(1_000_000 - 600));
    expect(clock.now().getTime()).toBe(1_000_000_000);
    await settle();
    expect(clock.now().getTime()).toBe(1_000_000_000);
  });

  it("follows a chain moved ahead (evm_increaseTime), carried forward with the wall clock between reads", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000_000 });
    let chainSeconds = 1_000_000 + 86_400;
    const read = vi.fn(() => Promise.resolve(chainSeconds));
    const clock = createChainClock(read, 5_000);
    clock.now();
    await settle();
    expect(clock.now().getTime()).toBe((1_000_000 + 86_400) * 1000);
    vi.setSystemTime(1_000_000_000 + 2_000);
    expect(clock.now().getTime()).toBe((1_000_000 + 86_400) * 1000 + 2_000);
    expect(read).toHaveBeenCalledTimes(1);
    // A later move is seen at the next read.
    chainSeconds += 86_400;
    vi.setSystemTime(1_000_000_000 + 6_000);
    clock.now();
    await settle();
    expect(clock.now().getTime()).toBe((1_000_000 + 2 * 86_400) * 1000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("never waits for an unreachable chain: the wall clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000_000 });
    const clock = createChainClock(() => Promise.reject(new Error("connection refused")));
    expect(clock.now().getTime()).toBe(1_000_000_000);
    await settle();
    expect(clock.now().getTime()).toBe(1_000_000_000);
  });

  it("current() reads the chain at once, between background reads (a chain moved a moment ago)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000_000 });
    let chainSeconds = 1_000_000;
    const read = vi.fn(() => Promise.resolve(chainSeconds));
    const clock = createChainClock(read, 5_000);
    clock.now();
    await settle();
    chainSeconds += 86_400;
    // now() keeps what it read until the next background read is due; current() asks.
    expect(clock.now().getTime()).toBe(1_000_000_000);
    expect((await clock.current()).getTime()).toBe((1_000_000 + 86_400) * 1000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("current() answers within its deadline when the chain hangs: what now() says", async () => {
    const clock = createChainClock(() => new Promise<number>(() => undefined));
    const before = Date.now();
    const current = await clock.current(50);
    expect(current.getTime()).toBeGreaterThanOrEqual(before);
    expect(Date.now() - before).toBeLessThan(2_000);
  });
});
