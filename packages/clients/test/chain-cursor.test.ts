import { describe, expect, it } from "vitest";
import { chainCursorAt, rewindChainCursor } from "../src/chain-cursor.js";

// Ponder 0.16's checkpoint: block time (10 digits), chain id, block number, transaction index (16 each), event type (1),
// event index (16).
const cursor = (time: number, block: number, logIndex: number) =>
  `${String(time).padStart(10, "0")}${"480".padStart(16, "0")}${String(block).padStart(16, "0")}${"0".padStart(16, "0")}5${String(logIndex).padStart(16, "0")}`;

describe("rewindChainCursor", () => {
  it("goes back the given seconds of chain time, before every event of those seconds", () => {
    const rewound = rewindChainCursor(cursor(1_800_000_120, 900, 7), 120);
    expect(rewound).toHaveLength(75);
    expect(rewound < cursor(1_800_000_000, 840, 0)).toBe(true);
    expect(rewound > cursor(1_799_999_999, 839, 99)).toBe(true);
  });

  it("stops at the chain's first moment and refuses what is not a cursor", () => {
    expect(rewindChainCursor(cursor(60, 1, 0), 120)).toBe("0".repeat(75));
    for (const bad of ["", "12345", "0x" + "1".repeat(73), "1".repeat(10)]) expect(() => rewindChainCursor(bad, 1), bad).toThrow(/not a chain cursor/);
  });
});

describe("chainCursorAt", () => {
  it("sorts before every event of that second and after every event of the one before", () => {
    const at = chainCursorAt(1_800_000_000);
    expect(at).toHaveLength(75);
    expect(at < cursor(1_800_000_000, 1, 0)).toBe(true);
    expect(at > cursor(1_799_999_999, 1, 99)).toBe(true);
  });
});
