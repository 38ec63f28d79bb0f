import { describe, expect, it } from "vitest";
import { ApiRequestError } from "../src/lib/api";
import { BACKOFF_ATTEMPTS, backoffDelay, createQueryClient, retryDelay } from "../src/lib/query-client";

describe("data layer defaults (spec section 7)", () => {
  it("keeps data fresh for 5 minutes, retries twice and drops unused data after 5 minutes", () => {
    const { queries } = createQueryClient().getDefaultOptions();
    expect(queries?.staleTime).toBe(300_000);
    expect(queries?.retry).toBe(2);
    expect(queries?.gcTime).toBe(300_000);
  });

  it("has a separate default of 3 attempts with exponential delay from 1 s, capped at 30 s", () => {
    expect(BACKOFF_ATTEMPTS).toBe(3);
    expect([0, 1, 2, 3, 4, 5, 6].map(backoffDelay)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it("waits as long as the API asked before asking again (a 429's retry-after), never over the data's freshness; the backoff otherwise", () => {
    const limited = (ms: number | null) => new ApiRequestError(429, "RATE_LIMITED", "too many requests", ms);
    expect(createQueryClient().getDefaultOptions().queries?.retryDelay).toBe(retryDelay);
    expect([0, 1].map((attempt) => retryDelay(attempt, limited(17_000)))).toEqual([17_000, 17_000]);
    expect(retryDelay(0, limited(3_600_000))).toBe(300_000);
    expect([0, 1, 2].map((attempt) => retryDelay(attempt, limited(null)))).toEqual([1000, 2000, 4000]);
    expect(retryDelay(1, new Error("offline"))).toBe(2000);
  });
});
