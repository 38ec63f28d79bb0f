import { describe, expect, it } from "vitest";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chainIdentity, pgliteDirectoryFor, schemaFor } from "../../src/lib/chain-identity";
import { indexingFiles, indexingFingerprint } from "../../src/lib/indexing-fingerprint";

const hashA = `0x${"ab".repeat(32)}` as const;
const hashB = `0x${"ab".repeat(31)}cd` as const;
const hashC = `0x${"cd".repeat(32)}` as const;

describe("chain identity", () => {
  it("names storage after the chain id and ORO's creation block, so a restarted chain gets new storage", () => {
    expect(chainIdentity(31337, hashA)).toBe("31337_abababab");
    expect(chainIdentity(31337, hashC)).not.toBe(chainIdentity(31337, hashA));
    expect(chainIdentity(480, hashA)).not.toBe(chainIdentity(31337, hashA));
    // Only the first 4 bytes count: enough to tell two runs of a local chain apart.
    expect(chainIdentity(31337, hashB)).toBe(chainIdentity(31337, hashA));
  });

  it("refuses something that is not a block hash", () => {
    expect(() => chainIdentity(31337, "0x1234")).toThrow(/block hash/);
  });

  it("derives a schema within Ponder's 45 characters (the longest prefix fits) and a PGlite folder", () => {
    const identity = chainIdentity(31337, hashA);
    expect(schemaFor("oro", identity, "0a1b2c")).toBe("oro_31337_abababab_0a1b2c");
    expect(schemaFor("a".repeat(20), identity, "0a1b2c")).toHaveLength(42);
    expect(() => schemaFor("a".repeat(30), identity, "0a1b2c")).toThrow(/45/);
    expect(pgliteDirectoryFor("/data", identity)).toBe("/data/31337_abababab");
  });
});

describe("indexing fingerprint (the schema's last part)", () => {
  const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const files = indexingFiles(packageDir);
  const contracts = { address: "0x01", startBlock: 7n };
  const base = indexingFingerprint({ contracts, files });

  it("reads the tables and the indexing code, not the HTTP API", () => {
    expect(Object.keys(files)).toEqual(expect.arrayContaining(["ponder.schema.ts", "src/handlers/Oro.ts", "src/lib/streak.ts"]));
    expect(Object.keys(files).filter((name) => name.startsWith("src/api/"))).toEqual([]);
    expect(base).toMatch(/^[0-9a-f]{6}$/);
    expect(indexingFingerprint({ contracts, files: { ...files } })).toBe(base);
  });

  it("changes with a table, a handler or a contract, so a new build never meets a schema filled by another", () => {
    expect(indexingFingerprint({ contracts, files: { ...files, "ponder.schema.ts": `${files["ponder.schema.ts"]}\n// a column` } })).not.toBe(base);
    expect(indexingFingerprint({ contracts, files: { ...files, "src/handlers/Oro.ts": "changed" } })).not.toBe(base);
    expect(indexingFingerprint({ contracts: { ...contracts, startBlock: 8n }, files })).not.toBe(base);
    const { "src/handlers/store.ts": _removed, ...fewer } = files;
    expect(indexingFingerprint({ contracts, files: fewer })).not.toBe(base);
  });
});
