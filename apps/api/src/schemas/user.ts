import { z } from "zod";
import { SWAP_REWARD_STATUSES } from "../services/user/user-data.js";

export const isInUsResponseSchema = z
  .object({ isInUS: z.boolean().meta({ description: "From the country header of the trusted proxy; false without one" }) })
  .meta({ id: "IsInUs" });

const minSwapVolumeUsd = z.number().nonnegative().meta({
  description: "The total swap volume (USD) from which the reward is Eligible: the API's setting, for the offer and the progress the app shows",
});

export const swapRewardResponseSchema = z
  .object({
    rewardStatus: z.enum(SWAP_REWARD_STATUSES).meta({ description: "Ineligible below the minimum swap volume (5 USD), Eligible at or above it, Claimed once paid" }),
    totalSwapVolumeUsd: z.number().nonnegative(),
    minSwapVolumeUsd,
  })
  .meta({ id: "SwapReward" });

export const swapRewardTermsResponseSchema = z.object({ minSwapVolumeUsd }).meta({ id: "SwapRewardTerms" });

export const emailBodySchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email().max(254))
    .meta({ description: "Trimmed and lower-cased before it is stored", example: "ana@example.com" }),
});

export const emailStatusResponseSchema = z
  .object({
    submitted: z.boolean().meta({ description: "The user has given an email: the form need not show again" }),
    submittedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "EmailStatus" });
