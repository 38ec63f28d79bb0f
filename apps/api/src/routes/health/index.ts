import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../schemas/common.js";
import { INDEXER_READINESS_STATES } from "../../services/indexer/index.js";

const indexerReadiness = z
  .object({
    state: z.enum(INDEXER_READINESS_STATES).meta({ description: "current: indexing keeps up with the chain; behind: the indexer answers but has stopped, lags or is still backfilling; unreachable: it does not answer" }),
    lagSeconds: z.number().nullable().meta({ description: "How long the oldest event not yet indexed has waited (0 when none; null when unknown)" }),
    lagBlocks: z.number().int().nullable().meta({ description: "Blocks from that event to the chain's head" }),
  })
  .meta({ id: "IndexerReadiness", description: "Where the indexer stands; the API is ready whatever it says (only the routes that need the indexer answer from their caches or 503)" });

const healthRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
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

  fastify.get(
    "/ready",
    {
      schema: {
        tags: ["health"],
        summary: "Readiness: the database answers (and where the indexer stands, which does not decide readiness)",
        response: { 200: z.object({ status: z.literal("ready"), database: z.literal("ok"), indexer: indexerReadiness }), ...errorResponses(503) },
      },
      config: { rateLimit: false },
    },
    async (request, reply) => {
      try {
        await fastify.services.database.prisma.$queryRaw`SELECT 1`;
        // Reported, never a reason to be unready: a load balancer would take every replica out for a dependency that
        // only some routes need.
        return { status: "ready" as const, database: "ok" as const, indexer: await fastify.services.indexerReadiness() };
      } catch (error) {
        request.log.warn({ err: error }, "readiness check failed");
        return reply.status(503).send({ error: "NOT_READY", message: "the database does not answer" });
      }
    },
  );
  done();
};

export default healthRoutes;
