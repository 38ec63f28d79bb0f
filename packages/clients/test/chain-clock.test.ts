import { describe, expect, it } from "vitest";
import { chainClockSeconds, type BlockReader } from "../src/chain-clock.js";

const reader = (pending: bigint | Error, latest: bigint): BlockReader => ({
  getBlock: ({ blockTag }) =>
    blockTag === "latest" ? Promise.resolve({ timestamp: latest }) : pending instanceof Error ? Promise.reject(pending) : Promise.resolve({ timestamp: pending }),
});

describe("the chain's clock", () => {
  it("is the pending block's time, ahead of a latest block that came a while ago", async () => {
    expect(await chainClockSeconds(reader(1_000_090n, 1_000_000n))).toBe(1_000_090);
  });

  it("is the latest block's time where the RPC does not serve the pending block", async () => {
    expect(await chainClockSeconds(reader(new Error("pending not supported"), 1_000_000n))).toBe(1_000_000);
  });
});
