import { describe, expect, it } from "vitest";
import { createIndexerReadiness } from "../src/services/indexer/readiness.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";

// Where the indexer stands, as /api/ready and the metrics give it: asked at most once per freshMs, never waited on longer
// than the deadline, never a throw.
describe("the indexer's readiness as the API sees it", () => {
  it("says behind for an indexer that answers but does not keep up (backfilling included), with its lag", async () => {
    const indexer = new FakeIndexer();
    indexer.indexing = { state: "backfilling", lagSeconds: 3_600, lagBlocks: 1_800 };
    const readiness = createIndexerReadiness({ indexer, freshMs: 0, deadlineMs: 1_000 });
    expect(await readiness()).toEqual({ state: "behind", lagSeconds: 3_600, lagBlocks: 1_800 });
    indexer.indexing = { state: "current", lagSeconds: 2, lagBlocks: 1 };
    expect(await readiness()).toEqual({ state: "current", lagSeconds: 2, lagBlocks: 1 });
  });

  it("asks once per freshMs however often it is read, one question at a time", async () => {
    const indexer = new FakeIndexer();
    let clock = 0;
    const readiness = createIndexerReadiness({ indexer, freshMs: 5_000, deadlineMs: 1_000, now: () => clock });
    await Promise.all([readiness(), readiness(), readiness()]);
    expect(indexer.calls).toBe(1);
    clock = 4_999;
    await readiness();
    expect(indexer.calls).toBe(1);
    clock = 5_000;
    await readiness();
    expect(indexer.calls).toBe(2);
  });

  it("says unreachable, at the deadline, for an indexer that does not answer or answers nothing usable", async () => {
    const hanging = new FakeIndexer();
    hanging.indexingHealth = () => new Promise(() => undefined);
    const started = Date.now();
    expect(await createIndexerReadiness({ indexer: hanging, freshMs: 0, deadlineMs: 200 })()).toEqual({ state: "unreachable", lagSeconds: null, lagBlocks: null });
    expect(Date.now() - started).toBeLessThan(2_000);
    const down = new FakeIndexer();
    down.down = true;
    expect(await createIndexerReadiness({ indexer: down, freshMs: 0, deadlineMs: 1_000 })()).toMatchObject({ state: "unreachable" });
  });
});
