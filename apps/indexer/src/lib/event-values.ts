/**
 * Event values as the tables can hold them. An event argument is any value of its ABI type (a uint256 up to
 * 2^256 - 1, any address, any string), while the columns have PostgreSQL's ranges: `integer` (±2^31), `int8` read as
 * a JS number (safe up to 2^53 - 1 here), `numeric(78)` (below 10^78) and `text` (no NUL). A value outside them fails
 * only when Ponder flushes, which stops the indexer for good; these readers bound it instead and note what they did.
 */
import { idkitSessionIdOf } from "@oro/clients";
import type { NoteAnomaly } from "./anomalies";

export const INT4_MAX = 2_147_483_647;
export const UINT256_MAX = 2n ** 256n - 1n;

/** A count the contract keeps (numOfMints) as a column `integer`; `fallback` (the indexer's own count) when it does not fit. */
export function countFromEvent(value: bigint, fallback: number, what: string, note: NoteAnomaly): number {
  if (value >= 0n && value <= BigInt(INT4_MAX)) return Number(value);
  const bounded = Math.min(Math.max(fallback, 0), INT4_MAX);
  note("value_out_of_range", `${what} ${value} does not fit an integer column: stored ${bounded}, the indexer's own count`);
  return bounded;
}

/** Seconds (the wait between mints) as a column `int8` read as a JS number: at most 2^53 - 1, i.e. "never" in practice. */
export function secondsFromEvent(value: bigint, what: string, note: NoteAnomaly): number {
  if (value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  note("value_out_of_range", `${what} ${value} s is beyond 2^53 - 1: stored ${Number.MAX_SAFE_INTEGER}`);
  return Number.MAX_SAFE_INTEGER;
}

/** An amount kept by adding and subtracting events' values (a balance, the supply, a total paid), bounded to a uint256. */
export function boundedAmount(value: bigint, what: string, note: NoteAnomaly): bigint {
  if (value < 0n) {
    note("amount_out_of_range", `${what} would be ${value}: stored 0`);
    return 0n;
  }
  if (value > UINT256_MAX) {
    note("amount_out_of_range", `${what} would be ${value}, above 2^256 - 1: stored 2^256 - 1`);
    return UINT256_MAX;
  }
  return value;
}

/** A string from an event as PostgreSQL's text holds it: without NUL characters. */
export function textFromEvent(value: string, what: string, note: NoteAnomaly): string {
  if (!value.includes("\u0000")) return value;
  note("text_with_nul", `${what} holds NUL characters: stored without them`);
  return value.replaceAll("\u0000", "");
}

/** IDKit's whole session id from an enrolment's two numbers, or null when the seed is not an OPRF seed. */
export function idkitSessionIdFromEvent(sessionId: bigint, sessionSeed: bigint, note: NoteAnomaly): string | null {
  try {
    return idkitSessionIdOf(sessionId, sessionSeed);
  } catch {
    note("unreadable_session_seed", `session ${sessionId.toString(16)} has seed ${sessionSeed.toString(16)}, not an OPRF seed (prefix byte 01): stored with no IDKit session id`);
    return null;
  }
}
