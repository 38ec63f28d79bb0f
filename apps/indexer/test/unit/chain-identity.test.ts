import { describe, expect, it } from "vitest";
import { chainIdentity, pgliteDirectoryFor, schemaFor } from "../../src/lib/chain-identity";

const hashA = `0x${"ab".repeat(32)}` as const;
const hashB = `0x${"ab".repeat(31)}cd` as const;
const hashC = `0x${"cd".repeat(32)}` as const;

describe("chain identity", () => {
  it("names storage after the chain id and ORO's creation block, so a restarted chain gets new storage", () => {
    expect(chainIdentity(31337, hashA)).toBe("31337_abababababab");
    expect(chainIdentity(31337, hashC)).not.toBe(chainIdentity(31337, hashA));
    expect(chainIdentity(480, hashA)).not.toBe(chainIdentity(31337, hashA));
    // Only the first 6 bytes count: enough to tell two runs of a local chain apart.
    expect(chainIdentity(31337, hashB)).toBe(chainIdentity(31337, hashA));
  });

  it("refuses something that is not a block hash", () => {
    expect(() => chainIdentity(31337, "0x1234")).toThrow(/block hash/);
  });

  it("derives a schema within Ponder's 45 characters and a PGlite folder", () => {
    const identity = chainIdentity(31337, hashA);
    expect(schemaFor("oro", identity)).toBe("oro_31337_abababababab");
    expect(() => schemaFor("a".repeat(30), identity)).toThrow(/45/);
    expect(pgliteDirectoryFor("/data", identity)).toBe("/data/31337_abababababab");
  });
});
