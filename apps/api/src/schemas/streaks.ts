import { z } from "zod";
import { addressSchema, booleanQuery, queryInteger, weiSchema } from "./common.js";

const unixSeconds = z.number().int().nonnegative();
const hex = z.string().regex(/^0x[0-9a-f]*$/);

const freshness = {
  stale: z.boolean().meta({ description: "true: the indexer did not answer, this is the last answer cached (see cachedAt)" }),
  cachedAt: z.iso.datetime().meta({ description: "When the indexer gave this answer" }),
};

export const streakQuerySchema = z.object({
  userAddress: addressSchema,
  bypassCache: booleanQuery.default(false).meta({ description: "true reads through to the indexer and refreshes the cache" }),
});

export const streakResponseSchema = z
  .object({
    address: hex,
    nullifierHash: hex.nullable().meta({ description: "The human whose streak the address shows; null before its first mint" }),
    currentStreak: z.number().int().nonnegative().meta({ description: "0 once the streak has lapsed" }),
    longestStreak: z.number().int().nonnegative(),
    numOfMints: z.number().int().nonnegative(),
    lastMintedAt: unixSeconds.nullable().meta({ description: "Unix seconds" }),
    nextMintAt: unixSeconds.nullable().meta({ description: "Unix seconds: when the next claim opens (lastMintedAt + waitBetweenMints)" }),
    streakExpiresAt: unixSeconds.nullable().meta({ description: "Unix seconds: the last moment a claim still continues the streak" }),
    ...freshness,
  })
  .meta({ id: "Streak" });

export const claimsQuerySchema = z.object({
  userAddress: addressSchema,
  limit: queryInteger(1, 100).default(10).meta({ description: "How many of the newest claims (1-100); the referral eligibility read uses 100 (for the wallet's first mint)" }),
});

export const streakClaimSchema = z
  .object({
    transactionHash: hex,
    blockNumber: z.number().int(),
    logIndex: z.number().int(),
    timestamp: unixSeconds,
    receiver: hex,
    nullifierHash: hex,
    amount: weiSchema,
    numOfMints: z.number().int().meta({ description: "The human's mint count after this claim" }),
    streak: z.number().int().meta({ description: "The human's streak right after this claim" }),
  })
  .meta({ id: "StreakClaim" });

export const claimsResponseSchema = z
  .object({ claims: z.array(streakClaimSchema).meta({ description: "Newest first" }), ...freshness })
  .meta({ id: "StreakClaims" });

export const clearStreakCacheResponseSchema = z.object({ cleared: z.literal(true) });
