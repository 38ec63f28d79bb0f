import type { OutboxAnswer } from "@oro/clients";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { addressSchema } from "../../schemas/common.js";
import { rememberDevices } from "../../services/notifications/outbox-transport.js";

const outboxQuerySchema = z.object({
  address: addressSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** The answer the simulator and the journeys read (its type's one home is @oro/clients, dev-outbox.ts). */
const outboxResponseSchema = z.object({
  notifications: z.array(
    z.object({
      id: z.string(),
      address: z.string(),
      language: z.string(),
      title: z.string(),
      message: z.string(),
      miniAppPath: z.string(),
      createdAt: z.iso.datetime(),
      /** World delivered it (in `language`), or did not: `reason` says why. */
      sent: z.boolean(),
      reason: z.string().nullable(),
    }),
  ),
}) satisfies z.ZodType<OutboxAnswer>;

const worldAppBodySchema = z.object({
  /** Each user's World App: its language and whether the user allowed the app's notifications. */
  users: z.array(z.object({ address: addressSchema, language: z.string().min(1).max(35), notifications: z.boolean() })).max(1_000).optional(),
  /** World's record of the app, as an operator would change it in the developer portal. */
  app: z
    .object({
      verified: z.boolean(),
      keyActive: z.boolean(),
      perUserPerDay: z.union([z.literal(0), z.literal(1), z.literal(2), z.null()]),
      listing: z.enum(["ok", "app_not_found", "duplicate_app", "external_app_not_allowed"]),
      paused: z.boolean(),
    })
    .partial()
    .optional(),
  /** What World's upstream send does with the next requests. */
  upstream: z.enum(["delivers", "throttled", "never-answers"]).optional(),
});

/**
 * DEVELOPMENT ONLY: what the outbox transport has "sent" (the World App simulator lists it). app.ts registers
 * this plugin only with the outbox transport outside production, and it stays out of the OpenAPI document.
 */
const devRoutes: FastifyPluginCallbackZod = (fastify, _options, done) => {
  fastify.get(
    "/notifications",
    {
      schema: {
        hide: true,
        querystring: outboxQuerySchema,
        response: { 200: outboxResponseSchema },
      },
    },
    async (request) => {
      const rows = await fastify.services.database.prisma.notificationOutbox.findMany({
        where: request.query.address ? { address: request.query.address } : {},
        orderBy: { createdAt: "desc" },
        take: request.query.limit,
      });
      return {
        notifications: rows.map((row) => ({
          id: row.id,
          address: row.address,
          language: row.language,
          title: row.title,
          message: row.message,
          miniAppPath: row.miniAppPath,
          createdAt: row.createdAt.toISOString(),
          sent: row.sent,
          reason: row.reason,
        })),
      };
    },
  );
  // What World knows that the API does not: the simulator tells the stand-in (the outbox's World) about its devices.
  fastify.post("/world-app", { schema: { hide: true, body: worldAppBodySchema, response: { 204: z.null() } } }, async (request, reply) => {
    const world = fastify.services.developmentWorld;
    if (!world) return reply.status(204).send(null);
    const users = request.body.users ?? [];
    if (users.length > 0) {
      await rememberDevices(fastify.services.database.prisma, world, Object.fromEntries(users.map((user) => [user.address.toLowerCase(), { language: user.language, notifications: user.notifications }])));
    }
    if (request.body.app) world.route.settings(request.body.app);
    if (request.body.upstream) world.upstream = request.body.upstream;
    return reply.status(204).send(null);
  });
  done();
};

export default devRoutes;
