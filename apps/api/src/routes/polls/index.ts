import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses, sessionSecurity } from "../../schemas/common.js";
import { pollsQuerySchema, pollsResponseSchema, voteBodySchema, voteParamsSchema, voteQuerySchema, voteResponseSchema } from "../../schemas/polls.js";

const pollRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  const { polls } = fastify.services;

  fastify.get(
    "",
    {
      schema: {
        tags: ["polls"],
        summary: "Open and closed polls with their vote counts; with a session also the caller's vote",
        security: [...sessionSecurity, {}],
        querystring: pollsQuerySchema,
        response: { 200: pollsResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => ({ polls: await polls.list(request.query.locale, await request.optionalUser()) }),
  );

  fastify.post(
    "/:id/vote",
    {
      schema: {
        tags: ["polls"],
        summary: "Votes, or changes the vote, while the poll is open: one vote per verified human",
        description:
          "The voter is the human (World ID nullifier hash) of the latest ORO claim the address received. Errors: " +
          "POLL_NOT_FOUND (404), OPTION_NOT_FOUND (400), POLL_CLOSED (409), NOT_VERIFIED_HUMAN (403: never claimed), " +
          "HUMAN_CHECK_UNAVAILABLE (503).",
        security: sessionSecurity,
        params: voteParamsSchema,
        querystring: voteQuerySchema,
        body: voteBodySchema,
        response: { 200: voteResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      const user = await request.requireUser(request.query.userAddress);
      return { poll: await polls.vote(user, request.params.id, request.body.optionId, request.query.locale) };
    },
  );
  done();
};

export default pollRoutes;
