import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../schemas/common.js";

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
        summary: "Readiness: the database answers",
        response: { 200: z.object({ status: z.literal("ready"), database: z.literal("ok") }), ...errorResponses(503) },
      },
      config: { rateLimit: false },
    },
    async (request, reply) => {
      try {
        await fastify.services.database.prisma.$queryRaw`SELECT 1`;
        return { status: "ready" as const, database: "ok" as const };
      } catch (error) {
        request.log.warn({ err: error }, "readiness check failed");
        return reply.status(503).send({ error: "NOT_READY", message: "the database does not answer" });
      }
    },
  );
  done();
};

export default healthRoutes;
