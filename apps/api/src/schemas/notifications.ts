import { z } from "zod";
import { LOCALES, toLocale } from "../lib/locales.js";
import { addressSchema } from "./common.js";

export const localeSchema = z.enum(LOCALES);

export const localeQuerySchema = z.object({
  userAddress: addressSchema,
  locale: z
    .string()
    .max(35)
    .transform(toLocale)
    .meta({ description: `The user's language: ${LOCALES.join(", ")} (a region such as pt-BR is allowed); anything else is en` }),
});

export const setLocaleResponseSchema = z.object({ locale: localeSchema.meta({ description: "The language stored" }) }).meta({ id: "NotificationLocale" });

export const claimReminderResponseSchema = z
  .object({
    scheduledFor: z.iso.datetime().meta({ description: "When the reminder is sent: the moment the next claim opens" }),
    locale: localeSchema,
    replaced: z.boolean().meta({ description: "true: a pending reminder existed and was moved, not added" }),
  })
  .meta({ id: "ClaimReminder" });
