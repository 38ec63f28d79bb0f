import { z } from "zod";
import { addressSchema } from "./common.js";

export const MAX_PRICE_TOKENS = 25;

export const tokenPriceQuerySchema = z.object({
  tokenAddresses: z
    .preprocess((value) => (typeof value === "string" ? value.split(",") : value), z.array(addressSchema).min(1).max(MAX_PRICE_TOKENS))
    .meta({ description: `One to ${MAX_PRICE_TOKENS} token addresses (repeat the parameter, or separate with commas)` }),
});

export const tokenPriceSchema = z
  .object({
    priceUsd: z.number().nonnegative(),
    percentChange24hr: z.number().meta({ description: "Change over 24 hours, in percent" }),
  })
  .meta({ id: "TokenPrice" });

export const tokenPricesResponseSchema = z
  .record(z.string(), tokenPriceSchema)
  .meta({ id: "TokenPrices", description: "Keyed by lower-case token address; a token without a price is absent" });
