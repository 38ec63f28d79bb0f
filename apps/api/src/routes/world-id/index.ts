import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses, sessionSecurity, userAddressQuery } from "../../schemas/common.js";
import { worldIdRequestResponseSchema } from "../../schemas/world-id.js";

const worldIdRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  fastify.post(
    "/request",
    {
      schema: {
        tags: ["world-id"],
        summary: "A signed IDKit 4 request context (rp_context) for the claim action",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: worldIdRequestResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      await request.requireUser(request.query.userAddress);
      return fastify.services.worldId.signClaimRequest();
    },
  );
  done();
};

export default worldIdRoutes;
