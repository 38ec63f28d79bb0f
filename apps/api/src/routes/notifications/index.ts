import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { errorResponses, sessionSecurity } from "../../schemas/common.js";
import { claimReminderResponseSchema, localeQuerySchema, setLocaleResponseSchema } from "../../schemas/notifications.js";

const notificationRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  const { reminders } = fastify.services;

  fastify.post(
    "/set_locale",
    {
      schema: {
        tags: ["notifications"],
        summary: "Stores the language of the user's reminders",
        security: sessionSecurity,
        querystring: localeQuerySchema,
        response: { 200: setLocaleResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      await request.requireUser(request.query.userAddress);
      await reminders.setLocale(request.query.userAddress, request.query.locale);
      return { locale: request.query.locale };
    },
  );

  fastify.post(
    "/oro_claim",
    {
      schema: {
        tags: ["notifications"],
        summary: "Schedules the reminder for the moment the user's next claim opens (replacing a pending one)",
        description: "Errors: REMINDER_UNAVAILABLE (503) while the indexer does not answer.",
        security: sessionSecurity,
        querystring: localeQuerySchema,
        response: { 200: claimReminderResponseSchema, ...errorResponses(400, 401, 403, 429, 503) },
      },
      preHandler: fastify.perAddressRateLimit,
    },
    async (request) => {
      await request.requireUser(request.query.userAddress);
      const { scheduledFor, replaced } = await reminders.scheduleClaimReminder(request.query.userAddress, request.query.locale);
      return { scheduledFor: scheduledFor.toISOString(), locale: request.query.locale, replaced };
    },
  );
  done();
};

export default notificationRoutes;
