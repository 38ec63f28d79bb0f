import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses, sessionSecurity, userAddressQuery } from "../../schemas/common.js";
import { emailBodySchema, emailStatusResponseSchema, isInUsResponseSchema, swapRewardResponseSchema, swapRewardTermsResponseSchema } from "../../schemas/user.js";

const userRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  const { userData } = fastify.services;

  fastify.get(
    "/is-in-us",
    {
      schema: {
        tags: ["user"],
        summary: "Whether the request comes from the US (the trusted proxy's country header)",
        querystring: userAddressQuery,
        response: { 200: isInUsResponseSchema, ...errorResponses(400, 429) },
      },
    },
    (request) => ({ isInUS: userData.isInUs(request.headers) }),
  );

  fastify.get(
    "/uno_rewards",
    {
      schema: {
        tags: ["user"],
        summary: "The user's swap reward: status and total partner swap volume in USD",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: swapRewardResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      const user = await request.requireUser(request.query.userAddress);
      return userData.swapReward(user.address);
    },
  );

  // The offer's terms for anyone, signed in or not: the rewards card names the minimum before sign-in too.
  fastify.get(
    "/uno_rewards/terms",
    {
      schema: {
        tags: ["user"],
        summary: "The swap reward's terms: the total swap volume (USD) that earns it",
        response: { 200: swapRewardTermsResponseSchema, ...errorResponses(429) },
      },
    },
    () => userData.swapRewardTerms,
  );

  fastify.post(
    "/email",
    {
      schema: {
        tags: ["user"],
        summary: "Stores the user's email from the post-claim form (one per user: a new one replaces it)",
        security: sessionSecurity,
        querystring: userAddressQuery,
        body: emailBodySchema,
        response: { 200: emailStatusResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      const user = await request.requireUser(request.query.userAddress);
      const submittedAt = await userData.submitEmail(user, request.body.email);
      return { submitted: true, submittedAt: submittedAt.toISOString() };
    },
  );

  fastify.get(
    "/email",
    {
      schema: {
        tags: ["user"],
        summary: "Whether the user has submitted an email",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: emailStatusResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => userData.emailStatus(await request.requireUser(request.query.userAddress)),
  );
  done();
};

export default userRoutes;
