import { describe, expect, it } from "vitest";
import { judgeIndexing } from "../../src/lib/indexing-health";

// GET /health/indexing's judgement: an indexer is behind when an event has waited too long, not when blocks passed.
const head = { number: 1_000, timestamp: 2_000_000 };

describe("whether the indexer keeps up", () => {
  it("is current on a quiet chain, however far the newest indexed event lies behind the head", () => {
    expect(judgeIndexing({ ready: true, indexed: { number: 10, timestamp: 1_000_000 }, head, waiting: null }, 60)).toMatchObject({
      state: "current",
      indexedBlock: 10,
      chainHead: 1_000,
      lagBlocks: 0,
      lagSeconds: 0,
    });
  });

  it("is current while the newest events wait less than the limit, and behind once one waits longer (a stopped indexer)", () => {
    const waitingFor = (seconds: number) => ({ number: 990, timestamp: head.timestamp - seconds });
    expect(judgeIndexing({ ready: true, indexed: { number: 989, timestamp: 0 }, head, waiting: waitingFor(60) }, 60)).toMatchObject({ state: "current", lagBlocks: 11, lagSeconds: 60 });
    const stopped = judgeIndexing({ ready: true, indexed: { number: 989, timestamp: 0 }, head, waiting: waitingFor(61) }, 60);
    expect(stopped).toMatchObject({ state: "behind", lagBlocks: 11, lagSeconds: 61 });
    expect(stopped.reason).toMatch(/block 990 has waited 61 s/);
  });

  it("is backfilling until Ponder's backfill is done, with the lag so far", () => {
    expect(judgeIndexing({ ready: false, indexed: null, head, waiting: { number: 5, timestamp: 1_000_000 } }, 60)).toMatchObject({
      state: "backfilling",
      indexedBlock: null,
      lagBlocks: 996,
      lagSeconds: 1_000_000,
    });
  });

  it("is behind, lag unknown, when the chain's RPC does not answer", () => {
    expect(judgeIndexing({ ready: true, indexed: { number: 989, timestamp: 0 }, head: null, waiting: null }, 60)).toMatchObject({
      state: "behind",
      chainHead: null,
      lagBlocks: null,
      lagSeconds: null,
      reason: "the chain's RPC does not answer",
    });
  });
});
