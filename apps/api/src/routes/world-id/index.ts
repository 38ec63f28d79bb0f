import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses, sessionSecurity, userAddressQuery } from "../../schemas/common.js";
import {
  pendingEnrolmentBodySchema,
  pendingEnrolmentDeletedSchema,
  pendingEnrolmentResponseSchema,
  worldIdRequestBodySchema,
  worldIdRequestQuerySchema,
  worldIdRequestResponseSchema,
  worldIdStatusResponseSchema,
} from "../../schemas/world-id.js";
import { ApiError } from "../../lib/errors.js";

const worldIdRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  fastify.post(
    "/request",
    {
      schema: {
        tags: ["world-id"],
        summary: "A signed IDKit 4 request context (rp_context) for a claim, an enrolment or a session proof",
        description: "kind goes in the query or the JSON body; 400 when both name one and they differ.",
        security: sessionSecurity,
        querystring: worldIdRequestQuerySchema,
        body: worldIdRequestBodySchema,
        response: { 200: worldIdRequestResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      await request.requireUser(request.query.userAddress);
      const inQuery = request.query.kind;
      const inBody = request.body?.kind;
      if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody) {
        throw new ApiError(400, "VALIDATION_ERROR", `kind: the query asks for ${inQuery}, the body for ${inBody}`);
      }
      return fastify.services.worldId.signWorldIdRequest(inBody ?? inQuery);
    },
  );

  fastify.get(
    "/status",
    {
      schema: {
        tags: ["world-id"],
        summary: "The World ID 4.0 session the chain records for the wallet's human (to claim from another device)",
        description:
          "Always asked of the indexer. When it does not answer within INDEXER_TIMEOUT, the last answer for this wallet is served " +
          "with stale: true; with none, 503 WORLD_ID_STATUS_UNAVAILABLE.",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: worldIdStatusResponseSchema, ...errorResponses(400, 401, 403, 429, 503) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      await request.requireUser(request.query.userAddress);
      return fastify.services.streaks.worldIdStatus(request.query.userAddress);
    },
  );

  const { pendingEnrolments } = fastify.services;
  const pendingDescription =
    "The signed-in wallet's World ID 4.0 enrolment or move whose transaction has not landed: World App discloses the uniqueness " +
    "proof once, so the app keeps it here and on the device until the chain shows it landed. One per wallet.";

  fastify.put(
    "/pending-enrolment",
    {
      schema: {
        tags: ["world-id"],
        summary: "Keeps the wallet's pending enrolment or move (replaces the one kept before)",
        description: `${pendingDescription} Refused (400) when its uniqueness proof can no longer land, or expires more than 366 days ahead.`,
        security: sessionSecurity,
        querystring: userAddressQuery,
        body: pendingEnrolmentBodySchema,
        response: { 200: pendingEnrolmentResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      const user = await request.requireUser(request.query.userAddress);
      await pendingEnrolments.keep(user, request.body);
      return { pending: await pendingEnrolments.read(user) };
    },
  );

  fastify.get(
    "/pending-enrolment",
    {
      schema: {
        tags: ["world-id"],
        summary: "The wallet's pending enrolment or move, if it can still land",
        description: pendingDescription,
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: pendingEnrolmentResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => ({ pending: await pendingEnrolments.read(await request.requireUser(request.query.userAddress)) }),
  );

  fastify.delete(
    "/pending-enrolment",
    {
      schema: {
        tags: ["world-id"],
        summary: "Forgets the wallet's pending enrolment or move (the chain shows it landed, or it can never land)",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: pendingEnrolmentDeletedSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => ({ deleted: await pendingEnrolments.forget(await request.requireUser(request.query.userAddress)) }),
  );
  done();
};

export default worldIdRoutes;
