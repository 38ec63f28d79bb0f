import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { addressSchema } from "../../schemas/common.js";

const outboxQuerySchema = z.object({
  address: addressSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

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
    }),
  ),
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
        })),
      };
    },
  );
  done();
};

export default devRoutes;
