import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { hotStatement } from "../../db/database.js";
import type { Config } from "../../env.js";
import { sharedCheck } from "../../lib/shared-check.js";
import { errorResponses } from "../../schemas/common.js";
import { INDEXER_READINESS_STATES } from "../../services/indexer/index.js";

const indexerReadiness = z
  .object({
    state: z.enum(INDEXER_READINESS_STATES).meta({ description: "current: indexing keeps up with the chain; behind: the indexer answers but has stopped, lags or is still backfilling; unreachable: it does not answer" }),
    lagSeconds: z.number().nullable().meta({ description: "How long the oldest event not yet indexed has waited (0 when none; null when unknown)" }),
    lagBlocks: z.number().int().nullable().meta({ description: "Blocks from that event to the chain's head" }),
  })
  .meta({ id: "IndexerReadiness", description: "Where the indexer stands; the API is ready whatever it says (only the routes that need the indexer answer from their caches or 503)" });

const PING = hotStatement<[], { ok: number }>("readiness_ping", "SELECT 1::int4 AS ok");

const healthRoutes: FastifyPluginCallbackZod<{ config: Config }> = (fastify, { config }, done) => {
  fastify.get(
    "/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness: the process answers",
        response: { 200: z.object({ status: z.literal("ok") }) },
      },
      config: { rateLimit: false },
    },
    (_request, reply) => {
      void reply.send({ status: "ok" as const });
    },
  );

  // Health checkers (Docker, Caddy, a load balancer) and anyone else share one database check per interval: a flood
  // of /api/ready costs what /api/health does, not a query each (1,786 a second saturated the API's CPU before).
  const databaseAnswers = sharedCheck({
    check: () => fastify.services.database.run(PING, []),
    freshMs: config.readiness.intervalMs,
    timeoutMs: config.readiness.timeoutMs,
  });
  let failing = false;
  /** Whether the database has answered since this process started (GET /api/live). */
  let readyOnce = false;
  fastify.get(
    "/ready",
    {
      schema: {
        tags: ["health"],
        summary: "Readiness: the database answers (and where the indexer stands, which does not decide readiness)",
        description:
          "The answer of one database check shared by every caller, at most READY_CHECK_INTERVAL old (1 s by default); a check " +
          "that takes READY_CHECK_TIMEOUT (2 s) fails. Rate-limited per client address on a budget of its own (RATE_LIMIT_READY_PER_IP).",
        response: { 200: z.object({ status: z.literal("ready"), database: z.literal("ok"), indexer: indexerReadiness }), ...errorResponses(429, 503) },
      },
      // Its own budget, so that health checkers neither spend nor are refused by the per-IP budget of the app's routes.
      config: { rateLimit: { max: config.rateLimit.readyPerIp, timeWindow: config.rateLimit.windowMs, keyGenerator: (request) => `ready:${request.ip}` } },
    },
    async (request, reply) => {
      const outcome = await databaseAnswers();
      if (outcome.ok) {
        readyOnce = true;
        if (failing) request.log.warn("readiness: the database answers again");
        failing = false;
        // Reported, never a reason to be unready: a load balancer would take every replica out for a dependency that
        // only some routes need.
        return { status: "ready" as const, database: "ok" as const, indexer: await fastify.services.indexerReadiness() };
      }
      // Once per outage, not once per request: a flood of health checks would drown the log.
      if (!failing) request.log.warn({ err: outcome.error }, "readiness check failed");
      failing = true;
      return reply.status(503).send({ error: "NOT_READY", message: "the database does not answer" });
    },
  );
  // The container's healthcheck: a replica is taken out and replaced when it hangs or never becomes ready (a rolling
  // update's bad build), never because the database every replica shares is down. Readiness for that would empty
  // Docker's DNS and restart every replica at once during a database outage, where each answers a fast 503 itself.
  fastify.get(
    "/live",
    {
      schema: {
        tags: ["health"],
        summary: "Alive: the process answers and has been ready (its database answered) since it started",
        response: { 200: z.object({ status: z.literal("live") }), ...errorResponses(429, 503) },
      },
      config: { rateLimit: { max: config.rateLimit.readyPerIp, timeWindow: config.rateLimit.windowMs, keyGenerator: (request) => `ready:${request.ip}` } },
    },
    async (_request, reply) => {
      if (!readyOnce) readyOnce = (await databaseAnswers()).ok;
      if (readyOnce) return { status: "live" as const };
      return reply.status(503).send({ error: "NOT_READY", message: "not ready since it started: the database does not answer" });
    },
  );
  done();
};

export default healthRoutes;
