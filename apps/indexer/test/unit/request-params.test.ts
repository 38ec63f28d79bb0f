import { describe, expect, it } from "vitest";
import { FOLLOW_LIMIT, parseAddress, parseCursor, parseLimit, parseNonce, parseNullifierHash, parseOrder } from "../../src/lib/request-params";

describe("parseAddress", () => {
  it("accepts lower-case, upper-case and checksummed addresses, lower-casing them", () => {
    for (const raw of [
      "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
      "0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266",
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    ]) {
      expect(parseAddress(raw)).toEqual({ ok: true, value: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" });
    }
  });

  it("refuses malformed addresses and a wrong checksum, naming the input", () => {
    for (const raw of ["", "0x", "0x1234", "f39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266"]) {
      const parsed = parseAddress(raw);
      expect(parsed.ok, raw).toBe(false);
      if (!parsed.ok) expect(parsed.error).toContain(`"${raw}"`);
    }
  });
});

describe("parseLimit", () => {
  it("defaults to 10 and accepts 1 to 100", () => {
    expect(parseLimit(undefined)).toEqual({ ok: true, value: 10 });
    expect(parseLimit("1")).toEqual({ ok: true, value: 1 });
    expect(parseLimit("100")).toEqual({ ok: true, value: 100 });
  });

  it("refuses anything else", () => {
    for (const raw of ["0", "101", "-1", "1.5", "ten", "1e2", " 5", "9".repeat(400), "1\u0000", "١٠"]) expect(parseLimit(raw).ok, raw).toBe(false);
  });

  it("takes other bounds for following in chain order: 1 to 1,000, 1,000 by default", () => {
    expect(parseLimit(undefined, FOLLOW_LIMIT)).toEqual({ ok: true, value: 1_000 });
    expect(parseLimit("1000", FOLLOW_LIMIT)).toEqual({ ok: true, value: 1_000 });
    expect(parseLimit("1001", FOLLOW_LIMIT)).toMatchObject({ ok: false, error: "limit must be an integer from 1 to 1000, got 1001" });
  });
});

describe("parseCursor", () => {
  it("is absent (from the first event) or the digits of an earlier answer's cursor", () => {
    expect(parseCursor(undefined)).toEqual({ ok: true, value: null });
    expect(parseCursor("")).toEqual({ ok: true, value: null });
    const cursor = "1".repeat(75);
    expect(parseCursor(cursor)).toEqual({ ok: true, value: cursor });
  });

  it("refuses anything else, naming the parameter", () => {
    // NULs, other digits than ASCII's, exponents and signs never reach the database; the longest cursor is text like any other.
    for (const raw of ["x", "0x1f", "-1", " 1", "1".repeat(101), "1\u0000", "\u0000", "1e400", "+1", "1.5", "١٢٣", "１２３", "9".repeat(99) + "\n"]) {
      const parsed = parseCursor(raw);
      expect(parsed.ok ? "" : parsed.error, raw).toMatch(/^after must be the cursor of an earlier answer/);
    }
  });
});

describe("parseOrder", () => {
  it("defaults to newest and accepts newest or oldest", () => {
    expect(parseOrder(undefined)).toEqual({ ok: true, value: "newest" });
    expect(parseOrder("newest")).toEqual({ ok: true, value: "newest" });
    expect(parseOrder("oldest")).toEqual({ ok: true, value: "oldest" });
  });

  it("refuses anything else, naming the parameter and the input", () => {
    for (const raw of ["asc", "Oldest", "oldest ", "1"]) {
      const parsed = parseOrder(raw);
      expect(parsed.ok, raw).toBe(false);
      if (!parsed.ok) expect(parsed.error).toContain(`order must be`);
      if (!parsed.ok) expect(parsed.error).toContain(`"${raw}"`);
    }
  });
});

describe("parseNullifierHash", () => {
  const hex = `0x${"0".repeat(62)}ff` as const;

  it("accepts hex of any length up to 32 bytes and decimal, normalising to 32-byte lower-case hex", () => {
    expect(parseNullifierHash("0xFF")).toEqual({ ok: true, value: hex });
    expect(parseNullifierHash("255")).toEqual({ ok: true, value: hex });
    expect(parseNullifierHash(hex)).toEqual({ ok: true, value: hex });
  });

  it("refuses values outside uint256 and non-numbers", () => {
    expect(parseNullifierHash(`0x1${"0".repeat(64)}`).ok).toBe(false);
    expect(parseNullifierHash((2n ** 256n).toString()).ok).toBe(false);
    expect(parseNullifierHash("alice").ok).toBe(false);
    expect(parseNullifierHash("0x").ok).toBe(false);
  });
});

describe("parseNonce", () => {
  it("accepts decimal uint256 and refuses the rest", () => {
    expect(parseNonce("7")).toEqual({ ok: true, value: 7n });
    expect(parseNonce("0x07").ok).toBe(false);
    expect(parseNonce((2n ** 256n).toString()).ok).toBe(false);
  });
});
