import { z } from "zod";
import { weiSchema } from "../../schemas/common.js";

export const tokenStatsResponseSchema = z
  .object({
    holders: z.number().int().nonnegative().meta({ description: "Unique holders: accounts with a balance above zero" }),
    totalSupply: weiSchema,
    lastEventAt: z.number().int().nonnegative().nullable().meta({ description: "Unix seconds of the newest indexed event; null before the first" }),
    stale: z.boolean().meta({ description: "true: the indexer did not answer, this is the last answer cached (see cachedAt)" }),
    cachedAt: z.iso.datetime().meta({ description: "When the indexer gave this answer" }),
  })
  .meta({ id: "TokenStats" });
