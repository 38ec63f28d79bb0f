import { parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { BALANCE_UNAVAILABLE, countdownParts, formatClaimAmount, formatOroBalance } from "../src/lib/format";

const oro = (value: string) => parseUnits(value, 18);

describe("header balance", () => {
  it.each([
    ["0", "0"],
    ["0.000000000000000001", "<0.01"],
    ["0.0099", "<0.01"],
    ["0.01", "0.01"],
    ["0.5", "0.5"],
    ["12.349", "12.34"],
    ["999.999", "999.99"],
    ["1234.5", "1.23K"],
    ["2500000", "2.5M"],
    ["7000000000", "7B"],
  ])("%s ORO shows as %s", (value, shown) => {
    expect(formatOroBalance(oro(value), "en")).toBe(shown);
  });

  it("shows '--' when the balance could not be read", () => {
    expect(formatOroBalance(null, "en")).toBe("--");
    expect(BALANCE_UNAVAILABLE).toBe("--");
  });

  it("uses the reader's number format", () => {
    expect(formatOroBalance(oro("12.5"), "es")).toBe("12,5");
  });
});

describe("claimed amount", () => {
  it.each([
    ["0.5", "0.5"],
    ["1", "1"],
    ["0.55", "0.5"],
    ["2.25", "2.2"],
  ])("%s ORO shows as %s (at most 1 decimal)", (value, shown) => {
    expect(formatClaimAmount(oro(value), "en")).toBe(shown);
  });
});

describe("countdown", () => {
  it("is HH:MM:SS under a day", () => {
    expect(countdownParts(1000 + 3 * 3600 + 25 * 60 + 7, 1000)).toEqual({ days: 0, clock: "03:25:07" });
  });
  it("adds whole days when a day or more is left", () => {
    expect(countdownParts(2 * 86_400 + 3661, 0)).toEqual({ days: 2, clock: "01:01:01" });
  });
  it("never goes below zero", () => {
    expect(countdownParts(100, 200)).toEqual({ days: 0, clock: "00:00:00" });
  });
});
