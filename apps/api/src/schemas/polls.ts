import { z } from "zod";
import { toLocale } from "../lib/locales.js";
import { addressSchema, controlCharacterMessage, NO_CONTROL_CHARACTERS } from "./common.js";

const locale = z.string().max(35).regex(NO_CONTROL_CHARACTERS, controlCharacterMessage).optional().transform((value) => toLocale(value)).meta({ description: "Language of the texts (en when absent or unknown)" });

export const pollsQuerySchema = z.object({ locale });

export const pollSchema = z
  .object({
    id: z.string(),
    question: z.string(),
    status: z.enum(["open", "closed"]),
    opensAt: z.iso.datetime(),
    closesAt: z.iso.datetime().nullable(),
    options: z.array(z.object({ id: z.string(), label: z.string(), votes: z.number().int().nonnegative() })),
    totalVotes: z.number().int().nonnegative(),
    myVote: z.string().nullable().meta({ description: "The option the caller (signed in) voted for, else null" }),
  })
  .meta({ id: "Poll" });

export const pollsResponseSchema = z.object({ polls: z.array(pollSchema).meta({ description: "Open polls first" }) }).meta({ id: "Polls" });

export const voteParamsSchema = z.object({ id: z.uuid() });

export const voteQuerySchema = z.object({ userAddress: addressSchema, locale });

export const voteBodySchema = z.object({ optionId: z.uuid() });

export const voteResponseSchema = z.object({ poll: pollSchema });
