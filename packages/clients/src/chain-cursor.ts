import type { ChainCursor } from "./indexer-api.js";

/** The digits of a block's unix time at the head of a chain cursor (IndexerApi.ChainCursor). */
const TIME_DIGITS = 10;

/**
 * A cursor `seconds` of chain time before `cursor`: following from it again reads every event of those seconds once
 * more, which a chain reorganisation may have replaced under the follower (the replacement events can sort before
 * where it had got to).
 */
export function rewindChainCursor(cursor: ChainCursor, seconds: number): ChainCursor {
  if (!/^\d+$/.test(cursor) || cursor.length <= TIME_DIGITS) throw new Error(`"${cursor}" is not a chain cursor`);
  const time = Math.max(0, Number(cursor.slice(0, TIME_DIGITS)) - seconds);
  return String(time).padStart(TIME_DIGITS, "0") + "0".repeat(cursor.length - TIME_DIGITS);
}
