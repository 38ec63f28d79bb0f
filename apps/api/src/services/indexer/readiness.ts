import type { IndexerClient } from "./client.js";

/** How the indexer stands, as the API's readiness answer and metrics give it. */
export const INDEXER_READINESS_STATES = ["current", "behind", "unreachable"] as const;

export interface IndexerReadiness {
  /** `behind`: the indexer answers but does not keep up (stopped, lagging, or still backfilling); `unreachable`: no usable answer. */
  state: (typeof INDEXER_READINESS_STATES)[number];
  /** Seconds the oldest event not yet indexed has waited (0 when none; null when unknown). */
  lagSeconds: number | null;
  /** Blocks from that event to the chain's head. */
  lagBlocks: number | null;
}

export interface IndexerReadinessOptions {
  indexer: IndexerClient;
  /** An answer is reused this long: probes and scrapes come often, the indexer's check reads the chain. */
  freshMs: number;
  /** Past this the indexer counts as unreachable: a readiness answer never waits on it. */
  deadlineMs: number;
  now?: () => number;
}

/**
 * Where the indexer stands (its GET /health/indexing), asked at most once per `freshMs` and never waited on longer than
 * `deadlineMs`. It never throws: an indexer that does not answer is `unreachable`. The API stays ready whatever it says
 * (only some routes need the indexer, and they answer from their caches or 503), so this is information, not a gate.
 */
export function createIndexerReadiness(options: IndexerReadinessOptions): () => Promise<IndexerReadiness> {
  const now = options.now ?? Date.now;
  let latest: { at: number; readiness: IndexerReadiness } | undefined;
  let asking: Promise<IndexerReadiness> | undefined;

  async function ask(): Promise<IndexerReadiness> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<IndexerReadiness>((resolve) => {
      timer = setTimeout(() => resolve({ state: "unreachable", lagSeconds: null, lagBlocks: null }), options.deadlineMs);
    });
    // Through a promise first: a client that throws before it returns one is as unreachable as one that rejects.
    const answered = Promise.resolve()
      .then(() => options.indexer.indexingHealth())
      .then(
        ({ state, lagSeconds, lagBlocks }): IndexerReadiness => ({ state: state === "current" ? "current" : "behind", lagSeconds, lagBlocks }),
        (): IndexerReadiness => ({ state: "unreachable", lagSeconds: null, lagBlocks: null }),
      );
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  return async () => {
    if (latest && now() - latest.at < options.freshMs) return latest.readiness;
    asking ??= ask().finally(() => {
      asking = undefined;
    });
    const readiness = await asking;
    latest = { at: now(), readiness };
    return readiness;
  };
}
