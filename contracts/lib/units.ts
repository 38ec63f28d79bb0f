import { parseUnits } from "viem";

/** ORO has 18 decimals, like ether. */
export const ORO_DECIMALS = 18;

/** Parses an ORO amount written as a decimal ("0.5", "1000") into wei. */
export function parseOro(value: string): bigint {
  const trimmed = value.trim();
  if (!/^\d+(\.\d{1,18})?$/.test(trimmed)) {
    throw new Error(`"${value}" is not an ORO amount: write a decimal number such as 0.5 or 1000 (at most 18 decimals)`);
  }
  return parseUnits(trimmed, ORO_DECIMALS);
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Parses a wait such as "24h", "90m", "2d", "30s" or plain seconds ("86400") into seconds. */
export function parseDuration(value: string): bigint {
  const match = /^(\d+)\s*([smhd]?)$/.exec(value.trim());
  if (!match) {
    throw new Error(`"${value}" is not a duration: write seconds (86400) or a number with s, m, h or d (24h, 90m)`);
  }
  const [, amount = "", unit = ""] = match;
  return BigInt(amount) * BigInt(DURATION_UNITS[unit === "" ? "s" : unit] ?? 1);
}

/** Formats seconds the way an owner reads them: "86400 s (24h)". */
export function formatDuration(seconds: bigint): string {
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [["d", 86_400n], ["h", 3600n], ["m", 60n], ["s", 1n]] as const) {
    if (rest >= size) {
      parts.push(`${rest / size}${unit}`);
      rest %= size;
    }
  }
  return `${seconds} s (${parts.length > 0 ? parts.join(" ") : "0s"})`;
}
