import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses, sessionSecurity } from "../../schemas/common.js";
import { referralCodeQuerySchema, referralCodeResponseSchema } from "../../schemas/referrals.js";

const referralCodeRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  fastify.get(
    "/for_user",
    {
      schema: {
        tags: ["referrals"],
        summary: "The user's own referral code for an app, created on first request",
        security: sessionSecurity,
        querystring: referralCodeQuerySchema,
        response: { 200: referralCodeResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      const user = await request.requireUser(request.query.userAddress);
      const referralCode = await fastify.services.referrals.codeForUser(user, request.query.app);
      return { referralCode: { referralCode } };
    },
  );
  done();
};

export default referralCodeRoutes;
