import type { preHandlerHookHandler } from "fastify";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses, sessionSecurity, userAddressQuery } from "../../schemas/common.js";
import {
  claimsQuerySchema,
  claimsResponseSchema,
  clearStreakCacheResponseSchema,
  streakQuerySchema,
  streakResponseSchema,
} from "../../schemas/streaks.js";

const unavailable = "503 STREAK_UNAVAILABLE when the indexer does not answer (within INDEXER_TIMEOUT) and nothing is cached; " +
  "with a cached answer it is served with stale: true instead.";

/**
 * Streaks are public on-chain facts (the indexer serves them to anyone), so these routes need no session.
 * Cached reads cost the indexer nothing and have only the per-IP limit; what reaches the indexer (a bypass,
 * a clear) also has the per-address one.
 */
const streakRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  const { streaks } = fastify.services;
  // A callback hook: the cached reads (nearly all) pass through it without a promise.
  const limitBypass: preHandlerHookHandler = (request, reply, done) => {
    if ((request.query as { bypassCache?: boolean }).bypassCache !== true) return done();
    fastify.perAddressRateLimit.call(fastify, request, reply).then(() => done(), done);
  };

  fastify.get(
    "/current",
    {
      schema: {
        tags: ["streaks"],
        summary: "The streak the address shows, from the indexer through the cache",
        description: unavailable,
        querystring: streakQuerySchema,
        response: { 200: streakResponseSchema, ...errorResponses(400, 429, 503) },
      },
      preHandler: limitBypass,
    },
    (request) => streaks.current(request.query.userAddress, { bypassCache: request.query.bypassCache }),
  );

  fastify.get(
    "/clear-streak-cache",
    {
      schema: {
        tags: ["streaks"],
        summary: "Drops the cached streak answers of the address (every process's copy): the owner's session only",
        description:
          "Only the address's own session may clear: a cleared answer cannot be served stale while the indexer is down, " +
          "so anyone else clearing it could turn the owner's streak into a 503.",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: clearStreakCacheResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      await request.requireUser(request.query.userAddress);
      await streaks.clear(request.query.userAddress);
      return { cleared: true as const };
    },
  );

  fastify.get(
    "/claims",
    {
      schema: {
        tags: ["streaks"],
        summary: "The newest claims (mints) the address received",
        description: unavailable,
        querystring: claimsQuerySchema.extend({ bypassCache: streakQuerySchema.shape.bypassCache }),
        response: { 200: claimsResponseSchema, ...errorResponses(400, 429, 503) },
      },
      preHandler: limitBypass,
    },
    (request) => streaks.claims(request.query.userAddress, request.query.limit, { bypassCache: request.query.bypassCache }),
  );
  done();
};

export default streakRoutes;
