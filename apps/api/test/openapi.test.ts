import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderOpenApiDocument } from "../src/openapi.js";

const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "openapi.json");

interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

describe("the OpenAPI document", () => {
  it("is built offline and matches the committed openapi.json (run pnpm generate if this fails)", async () => {
    const rendered = await renderOpenApiDocument();
    expect(rendered).toBe(await readFile(OPENAPI_FILE, "utf8"));
  });

  it("declares every response by status code and the inputs of every route", async () => {
    const document = JSON.parse(await readFile(OPENAPI_FILE, "utf8")) as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route, method, operation })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(10);
    for (const { route, operation } of operations) {
      expect(operation.responses["200"], route).toBeDefined();
      // Every route but the liveness probe can fail in a declared way (at least 429 or 503).
      if (route !== "/api/health") expect(Object.keys(operation.responses).length, route).toBeGreaterThan(1);
    }
    const byRoute = Object.fromEntries(operations.map(({ route, operation }) => [route, operation]));
    const queryOf = (route: string) => (byRoute[route]?.parameters ?? []).filter((p) => p.in === "query").map((p) => [p.name, p.required ?? false]);
    expect(queryOf("/api/referrals/refer_with_signature")).toEqual(
      expect.arrayContaining([["userAddress", true], ["referralCode", true], ["signature", true], ["nonce", false]]),
    );
    expect(queryOf("/api/referrals/oro-earned")).toEqual(expect.arrayContaining([["userAddress", true], ["forceBustCache", false]]));
    expect(queryOf("/api/referral_codes/for_user")).toEqual(expect.arrayContaining([["userAddress", true], ["app", true]]));
    expect(byRoute["/api/auth/siwe"]?.requestBody).toBeDefined();
    expect(queryOf("/api/streaks/current")).toEqual([["userAddress", true], ["bypassCache", false]]);
    expect(queryOf("/api/streaks/claims")).toEqual(expect.arrayContaining([["userAddress", true], ["limit", false]]));
    expect(queryOf("/api/notifications/oro_claim")).toEqual([["userAddress", true], ["locale", true]]);
    expect(queryOf("/api/erc20/token-price")).toEqual([["tokenAddresses", true]]);
    expect(document.paths["/api/user/email"]?.post?.requestBody).toBeDefined();
    expect(byRoute["/api/polls/{id}/vote"]?.requestBody).toBeDefined();
    for (const route of ["/api/streaks/current", "/api/streaks/claims", "/api/notifications/oro_claim", "/api/erc20/token-price", "/api/polls/{id}/vote", "/api/stats"]) {
      expect(Object.keys(byRoute[route]?.responses ?? {}), route).toContain("503");
    }
  });
});
