import { describe, expect, it } from "vitest";
import { BACKOFF_ATTEMPTS, backoffDelay, createQueryClient } from "../src/lib/query-client";

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
});
