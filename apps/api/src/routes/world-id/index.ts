import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses, sessionSecurity, userAddressQuery } from "../../schemas/common.js";
import { worldIdRequestQuerySchema, worldIdRequestResponseSchema, worldIdStatusResponseSchema } from "../../schemas/world-id.js";
import { ApiError } from "../../services/errors.js";
import { IndexerUnavailableError } from "../../services/indexer.js";

const worldIdRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  fastify.post(
    "/request",
    {
      schema: {
        tags: ["world-id"],
        summary: "A signed IDKit 4 request context (rp_context) for a claim, an enrolment or a session proof",
        security: sessionSecurity,
        querystring: worldIdRequestQuerySchema,
        response: { 200: worldIdRequestResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      await request.requireUser(request.query.userAddress);
      return fastify.services.worldId.signWorldIdRequest(request.query.kind);
    },
  );

  fastify.get(
    "/status",
    {
      schema: {
        tags: ["world-id"],
        summary: "The World ID 4.0 session the chain records for the wallet's human (to claim from another device)",
        description: "503 WORLD_ID_STATUS_UNAVAILABLE when the indexer does not answer within INDEXER_TIMEOUT.",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: worldIdStatusResponseSchema, ...errorResponses(400, 401, 403, 429, 503) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      await request.requireUser(request.query.userAddress);
      try {
        return await fastify.services.indexer.worldIdStatus(request.query.userAddress);
      } catch (error) {
        if (!(error instanceof IndexerUnavailableError)) throw error;
        request.log.warn({ err: error }, "World ID status: indexer unavailable");
        throw new ApiError(503, "WORLD_ID_STATUS_UNAVAILABLE", "cannot read the World ID session right now: try again shortly");
      }
    },
  );
  done();
};

export default worldIdRoutes;
