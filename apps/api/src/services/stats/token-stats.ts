import type { FastifyBaseLogger } from "fastify";
import { ApiError } from "../../lib/errors.js";
import { IndexerUnavailableError, type IndexedTokenStats, type IndexerClient } from "../indexer/index.js";

/** What GET /api/stats answers: the indexer's token figures, and whether they are the latest. */
export interface TokenStatsView {
  holders: number;
  /** wei, as a decimal string */
  totalSupply: string;
  lastEventAt: number | null;
  stale: boolean;
  cachedAt: string;
}

export interface TokenStatsServiceOptions {
  indexer: IndexerClient;
  /** How long an answer is served without asking the indexer again. */
  ttlMs: number;
  /** How old an answer may be and still be served (as stale) while the indexer is down. */
  maxAgeMs: number;
  log: FastifyBaseLogger;
}

interface CachedStats {
  stats: IndexedTokenStats;
  fetchedAt: number;
}

export type TokenStatsService = ReturnType<typeof createTokenStatsService>;

/**
 * The token's holders and supply, cached like the streaks: one answer for everyone, fresh for `ttlMs`; a
 * miss makes one indexer request however many callers wait; when the indexer does not answer within its
 * timeout the last answer is served with `stale: true`, and with none the caller gets 503 STATS_UNAVAILABLE.
 * The figures are the same for every user, so process memory is enough: each process asks at most once per TTL.
 */
export function createTokenStatsService(options: TokenStatsServiceOptions) {
  const { indexer, log } = options;
  let last: CachedStats | undefined;
  let inFlight: Promise<CachedStats> | undefined;

  function refresh(): Promise<CachedStats> {
    inFlight ??= indexer
      .tokenStats()
      .then((stats) => {
        last = { stats, fetchedAt: Date.now() };
        return last;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  const view = ({ stats, fetchedAt }: CachedStats, stale: boolean): TokenStatsView => ({
    holders: stats.holders,
    totalSupply: stats.totalSupply.toString(),
    lastEventAt: stats.lastEventAt,
    stale,
    cachedAt: new Date(fetchedAt).toISOString(),
  });

  async function current(): Promise<TokenStatsView> {
    if (last && last.fetchedAt + options.ttlMs > Date.now()) return view(last, false);
    try {
      return view(await refresh(), false);
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      if (last && last.fetchedAt > Date.now() - options.maxAgeMs) {
        log.warn({ err: error }, "indexer unavailable: serving the cached token stats as stale");
        return view(last, true);
      }
      throw new ApiError(503, "STATS_UNAVAILABLE", "the indexer does not answer and no token stats are cached: try again shortly");
    }
  }

  return { current };
}
