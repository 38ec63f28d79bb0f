import type { ChainCursor } from "./indexer-api.js";

/** The digits of a block's unix time at the head of a chain cursor (IndexerApi.ChainCursor). */
const TIME_DIGITS = 10;
/** The length of Ponder 0.16's checkpoint: time, chain id, block number, transaction index, event type, event index. */
const CURSOR_DIGITS = 75;

/** The cursor just before every event of the second `unixSeconds` (a follower given it reads them all). */
export function chainCursorAt(unixSeconds: number, length = CURSOR_DIGITS): ChainCursor {
  const time = Math.max(0, Math.floor(unixSeconds));
  return String(time).padStart(TIME_DIGITS, "0") + "0".repeat(length - TIME_DIGITS);
}

/**
 * A cursor `seconds` of chain time before `cursor`: following from it again reads every event of those seconds once
 * more, which a chain reorganisation may have replaced under the follower (the replacement events can sort before
 * where it had got to).
 */
export function rewindChainCursor(cursor: ChainCursor, seconds: number): ChainCursor {
  if (!/^\d+$/.test(cursor) || cursor.length <= TIME_DIGITS) throw new Error(`"${cursor}" is not a chain cursor`);
  return chainCursorAt(Number(cursor.slice(0, TIME_DIGITS)) - seconds, cursor.length);
}
