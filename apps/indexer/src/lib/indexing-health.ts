/**
 * Whether the indexer keeps up with the chain, from where it stands and what the chain holds. Ponder's own /health
 * and /ready say only that the process serves and that the backfill once finished: an indexer that stopped at a block
 * (a handler that threw, a live sync that gave up) answers both while the chain moves on. Its /status names the newest
 * block that carried an event, so a quiet chain looks like a stopped indexer by block numbers alone; what tells them
 * apart is whether an event is waiting, and since when.
 */
import type { IndexingHealthResponse } from "../api/types";

export interface ChainPoint {
  number: number;
  /** Unix seconds. */
  timestamp: number;
}

export interface IndexingPosition {
  /** Ponder's /ready: the backfill is done. */
  ready: boolean;
  /** The newest block the indexer indexed an event of (Ponder's /status), or null before the first. */
  indexed: ChainPoint | null;
  /** The chain's newest block, or null when the RPC did not answer. */
  head: ChainPoint | null;
  /**
   * The oldest block after `indexed` that is not known to be indexed: the first holding an event of the indexed
   * contracts, or the first block past the range searched for one; null when none up to the head.
   */
  waiting: ChainPoint | null;
}

/** The answer of GET /health/indexing for a position; `behindAfterSeconds` is how long an event may wait. */
export function judgeIndexing(position: IndexingPosition, behindAfterSeconds: number): IndexingHealthResponse {
  const { ready, indexed, head, waiting } = position;
  const answer = { indexedBlock: indexed?.number ?? null, chainHead: head?.number ?? null };
  if (!head) return { state: "behind", reason: "the chain's RPC does not answer", ...answer, lagBlocks: null, lagSeconds: null };
  const lagBlocks = waiting ? Math.max(0, head.number - waiting.number + 1) : 0;
  const lagSeconds = waiting ? Math.max(0, head.timestamp - waiting.timestamp) : 0;
  if (!ready) return { state: "backfilling", reason: "the backfill is not done (Ponder's /ready)", ...answer, lagBlocks, lagSeconds };
  if (waiting && lagSeconds > behindAfterSeconds) {
    return { state: "behind", reason: `block ${waiting.number} has waited ${lagSeconds} s (more than ${behindAfterSeconds} s) to be indexed`, ...answer, lagBlocks, lagSeconds };
  }
  return { state: "current", reason: waiting ? `the newest events are ${lagSeconds} s old` : "every event up to the chain's head is indexed", ...answer, lagBlocks, lagSeconds };
}
