import { describe, expect, it } from "vitest";
import { TtlCache } from "../src/lib/ttl-cache.js";

// The earnings cache is filled by reads that take a while (the database, the indexer); a change recorded meanwhile
// (an invite activated, here or in another API process) deletes the key. A read that began before must not put back
// what it saw before the change: the person would see the old page until the copy expires.
describe("TtlCache", () => {
  it("keeps a value read since the last delete of its key", () => {
    const cache = new TtlCache<string>(60_000);
    cache.delete("alice");
    const mark = cache.mark();
    cache.set("alice", "fresh", mark);
    expect(cache.get("alice")).toBe("fresh");
  });

  it("does not keep a value whose read began before its key was deleted", () => {
    const cache = new TtlCache<string>(60_000);
    cache.set("alice", "old");
    const mark = cache.mark();
    cache.delete("alice"); // the change lands while the read is in flight
    cache.set("alice", "read before the change", mark);
    expect(cache.get("alice")).toBeUndefined();
    // Another key's delete does not stop it.
    const next = cache.mark();
    cache.delete("bob");
    cache.set("alice", "read after the change", next);
    expect(cache.get("alice")).toBe("read after the change");
  });

  it("refuses every read begun before a clear, and before a tombstone pushed out by the size bound", () => {
    const cache = new TtlCache<string>(60_000, 2);
    let mark = cache.mark();
    cache.clear();
    cache.set("alice", "read before the clear", mark);
    expect(cache.get("alice")).toBeUndefined();

    mark = cache.mark();
    cache.delete("alice");
    cache.set("bob", "b");
    cache.set("carol", "c"); // pushes alice's tombstone out: nothing says when alice changed any more
    cache.set("alice", "read before the delete", mark);
    expect(cache.get("alice")).toBeUndefined();
  });

  it("a set without a mark always stores, and values expire", async () => {
    const cache = new TtlCache<string>(20);
    cache.delete("alice");
    cache.set("alice", "v");
    expect(cache.get("alice")).toBe("v");
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.get("alice")).toBeUndefined();
  });
});
