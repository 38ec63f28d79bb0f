import { addresses } from "@oro/clients";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { ApiError } from "../../lib/errors.js";
import { TtlCache } from "../../lib/ttl-cache.js";

export interface TokenPrice {
  priceUsd: number;
  percentChange24hr: number;
}

/** A source of USD prices by lower-case token address; a token it does not know is absent from the map. */
export interface PriceProvider {
  readonly name: string;
  prices(tokens: string[]): Promise<Map<string, TokenPrice>>;
}

/** The provider could not answer; the route turns it into a 503 unless every token is cached. */
export class PriceUnavailableError extends Error {
  override name = "PriceUnavailableError";
}

/**
 * A CoinGecko-compatible price API: `GET {base}/simple/token_price/{platform}?contract_addresses=a,b
 * &vs_currencies=usd&include_24hr_change=true`, answering `{ "<address>": { usd, usd_24h_change } }`.
 */
export function createHttpPriceProvider(options: {
  apiUrl: string;
  platform: string;
  apiKey?: string | undefined;
  apiKeyHeader: string;
  timeoutMs?: number;
}): PriceProvider {
  const base = options.apiUrl.replace(/\/+$/, "");
  const answer = z.record(z.string(), z.object({ usd: z.number().optional(), usd_24h_change: z.number().nullish() }));
  return {
    name: "http",
    async prices(tokens) {
      const query = new URLSearchParams({ contract_addresses: tokens.join(","), vs_currencies: "usd", include_24hr_change: "true" });
      let response: Response;
      try {
        response = await fetch(`${base}/simple/token_price/${options.platform}?${query.toString()}`, {
          headers: { accept: "application/json", ...(options.apiKey ? { [options.apiKeyHeader]: options.apiKey } : {}) },
          signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
        });
      } catch (error) {
        throw new PriceUnavailableError(`price request failed: ${(error as Error).message}`);
      }
      if (!response.ok) throw new PriceUnavailableError(`price source answered ${response.status}`);
      const parsed = answer.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) throw new PriceUnavailableError("price source answered an unexpected body");
      const prices = new Map<string, TokenPrice>();
      for (const [token, quote] of Object.entries(parsed.data)) {
        if (quote.usd === undefined) continue;
        prices.set(token.toLowerCase(), { priceUsd: quote.usd, percentChange24hr: quote.usd_24h_change ?? 0 });
      }
      return prices;
    },
  };
}

/** Fixed prices for the tokens the development profile knows: the ORO of every recorded deployment. */
export function createDevelopmentPriceProvider(): PriceProvider {
  const known = new Map<string, TokenPrice>();
  for (const deployment of Object.values(addresses)) {
    known.set(deployment.Oro.toLowerCase(), { priceUsd: 0.0125, percentChange24hr: 4.2 });
  }
  return {
    name: "development",
    prices: (tokens) => Promise.resolve(new Map(tokens.flatMap((token) => {
      const price = known.get(token);
      return price ? [[token, price] as const] : [];
    }))),
  };
}

export type PriceService = ReturnType<typeof createPriceService>;

/**
 * Token prices through a per-token cache (`ttlMs`, a minute by default). Only the tokens not cached are
 * asked for, and tokens the provider does not know are remembered as unknown for the same time.
 */
export function createPriceService(options: { provider: PriceProvider; ttlMs: number; log: FastifyBaseLogger }) {
  const cache = new TtlCache<TokenPrice | null>(options.ttlMs, 50_000);
  const inFlight = new Map<string, Promise<void>>();

  async function fetchMissing(tokens: string[]): Promise<void> {
    const key = tokens.join(",");
    const running = inFlight.get(key);
    if (running) return running;
    const next = options.provider
      .prices(tokens)
      .then((prices) => {
        for (const token of tokens) cache.set(token, prices.get(token) ?? null);
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, next);
    return next;
  }

  async function prices(tokens: string[]): Promise<Record<string, TokenPrice>> {
    const unique = [...new Set(tokens.map((token) => token.toLowerCase()))].sort();
    const missing = unique.filter((token) => cache.get(token) === undefined);
    if (missing.length > 0) {
      try {
        await fetchMissing(missing);
      } catch (error) {
        options.log.warn({ err: error, tokens: missing }, "token prices unavailable");
        throw new ApiError(503, "PRICE_UNAVAILABLE", "token prices are unavailable right now: try again shortly");
      }
    }
    const result: Record<string, TokenPrice> = {};
    for (const token of unique) {
      const price = cache.get(token);
      if (price) result[token] = price;
    }
    return result;
  }

  return { prices };
}
