import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import type { Config } from "../../env.js";
import { errorResponses, sessionSecurity } from "../../schemas/common.js";
import {
  oroEarnedQuerySchema,
  oroEarnedResponseSchema,
  referralEligibilityResponseSchema,
  referralNonceResponseSchema,
  referralProgrammeResponseSchema,
  referWithSignatureQuerySchema,
  referWithSignatureResponseSchema,
  userAddressQuery,
} from "../../schemas/referrals.js";

const referralRoutes: FastifyPluginCallbackZod<{ config: Config }> = (fastify, { config }, done) => {
  const { referrals } = fastify.services;

  // The amounts the share screen names, from the API's own settings (one home: the web app never types them).
  const programme = {
    referrerRewardWei: config.referral.referrer.amountWei.toString(),
    refereeRewardWei: config.referral.referee.amountWei.toString(),
  };
  fastify.get(
    "/programme",
    {
      schema: {
        tags: ["referrals"],
        summary: "The referral programme's rewards: what the sharer and the invited person each earn",
        response: { 200: referralProgrammeResponseSchema, ...errorResponses(429) },
      },
    },
    () => programme,
  );

  fastify.get(
    "/nonce",
    {
      schema: {
        tags: ["referrals"],
        summary: "A single-use nonce for the invite message the referee signs",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: referralNonceResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      const user = await request.requireUser(request.query.userAddress);
      const { nonce, expiresAt } = await referrals.issueAcceptNonce(user);
      return { nonce, expiresAt: expiresAt.toISOString() };
    },
  );

  fastify.post(
    "/refer_with_signature",
    {
      schema: {
        tags: ["referrals"],
        summary: "Accept an invite code (the referee signs the invite message)",
        description:
          "Errors: REFERRAL_CODE_NOT_FOUND (404), REFERRAL_ALREADY_EXISTS (409), NO_SELF_REFERRAL (400), " +
          "SIGNATURE_REQUIRED (400), SIGNATURE_INVALID (400), NOT_ELIGIBLE (403: already claimed), " +
          "ELIGIBILITY_UNAVAILABLE (503).",
        security: sessionSecurity,
        querystring: referWithSignatureQuerySchema,
        response: { 200: referWithSignatureResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      const user = await request.requireUser(request.query.userAddress);
      return referrals.accept(user, request.query);
    },
  );

  fastify.get(
    "/eligibility",
    {
      schema: {
        tags: ["referrals"],
        summary: "Whether the wallet may accept an invite now (decided per human where the human is known)",
        description:
          "Eligible while no human is known to have minted to the wallet, or when the wallet's human is allow-listed. The wallet's human is " +
          "the one the API remembered for this user, else the human of the wallet's first mint (later mints by other humans do not change it); " +
          "acceptance and activation judge the same human. Read through the streak cache: while the indexer is down a cached answer is used; " +
          "with none, ELIGIBILITY_UNAVAILABLE (503).",
        security: sessionSecurity,
        querystring: userAddressQuery,
        response: { 200: referralEligibilityResponseSchema, ...errorResponses(400, 401, 403, 429, 503) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => referrals.eligibility(await request.requireUser(request.query.userAddress)),
  );

  fastify.get(
    "/oro-earned",
    {
      schema: {
        tags: ["referrals"],
        summary: "What the user earned from the referral programme, with claimable vouchers, and one page of the invites",
        description:
          "The first page (no cursor) is cached per user (forceBustCache=true reads through it). A bad cursor is a 400 naming querystring.cursor.",
        security: sessionSecurity,
        querystring: oroEarnedQuerySchema,
        response: { 200: oroEarnedResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      const user = await request.requireUser(request.query.userAddress);
      return referrals.earnings(user, { bypassCache: request.query.forceBustCache, cursor: request.query.cursor });
    },
  );
  done();
};

export default referralRoutes;
