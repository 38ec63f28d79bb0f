import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import type { Config } from "../../env.js";
import { errorResponses } from "../../schemas/common.js";
import { createTokenStatsService } from "../../services/stats/token-stats.js";
import { tokenStatsResponseSchema } from "./schemas.js";

/**
 * The token's public figures for the stats screen (unique holders, total supply), from the indexer through a
 * cache: the web app reads them here rather than from a second origin. Public, so no session.
 */
const statsRoutes: FastifyPluginCallbackZod<{ config: Config }> = (fastify, { config }, done) => {
  const tokenStats = createTokenStatsService({
    indexer: fastify.services.indexer,
    ttlMs: config.streakCache.ttlMs,
    maxAgeMs: config.streakCache.maxAgeMs,
    log: fastify.log.child({ service: "token-stats" }),
  });

  fastify.get(
    "",
    {
      schema: {
        tags: ["stats"],
        summary: "Unique holders and total supply of ORO, from the indexer through the cache",
        description:
          "503 STATS_UNAVAILABLE when the indexer does not answer (within INDEXER_TIMEOUT) and nothing is cached; " +
          "with a cached answer it is served with stale: true instead.",
        response: { 200: tokenStatsResponseSchema, ...errorResponses(429, 503) },
      },
    },
    () => tokenStats.current(),
  );
  done();
};

export default statsRoutes;
