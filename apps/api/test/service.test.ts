import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser } from "./helpers/referrals.js";
import { bearer, fetchNonce, siweMessage } from "./helpers/siwe.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    indexer: new FakeIndexer(),
    env: {
      RATE_LIMIT_PER_IP: "40",
      RATE_LIMIT_PER_ADDRESS: "3",
      CORS_ORIGINS: "https://app.oro.example",
      SIWE_DOMAINS: "oro.example",
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe("health and readiness", () => {
  it("/api/health answers ok", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("/api/ready checks the database: ready, then 503 once it is gone", async () => {
    const ready = await t.app.inject({ method: "GET", url: "/api/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready", database: "ok", indexer: { state: "current", lagSeconds: 0, lagBlocks: 0 } });

    const broken = await createTestApp();
    await broken.db.drop();
    const notReady = await broken.app.inject({ method: "GET", url: "/api/ready" });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toMatchObject({ error: "NOT_READY" });
    await broken.app.close();
  });

  it("/api/ready says where the indexer stands, and stays ready when the indexer does not answer", async () => {
    // (behind, with its lag: indexer-readiness.test.ts)
    const indexer = new FakeIndexer();
    indexer.down = true;
    const gone = await createTestApp({ indexer });
    try {
      const unreachable = await gone.app.inject({ method: "GET", url: "/api/ready" });
      expect(unreachable.statusCode).toBe(200);
      expect(unreachable.json()).toEqual({ status: "ready", database: "ok", indexer: { state: "unreachable", lagSeconds: null, lagBlocks: null } });
    } finally {
      await gone.app.close();
    }
  });
});

describe("HTTP hygiene", () => {
  it("sets security headers and echoes or creates a request id", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": "abc-123" } });
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(response.headers["strict-transport-security"]).toContain("max-age=");
    expect(response.headers["x-request-id"]).toBe("abc-123");
    const generated = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(generated.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await t.app.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": "a b<script>" } });
    expect(hostile.headers["x-request-id"]).not.toContain("<");
  });

  it("sets an API's security headers on every JSON answer, failures too, and helmet's whole set on the HTML pages", async () => {
    const apiSet = {
      "strict-transport-security": "max-age=31536000; includeSubDomains",
      "x-content-type-options": "nosniff",
      "x-frame-options": "SAMEORIGIN",
    };
    const documentOnly = {
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "cross-origin",
      "origin-agent-cluster": "?1",
      "referrer-policy": "no-referrer",
      "x-dns-prefetch-control": "off",
      "x-download-options": "noopen",
      "x-permitted-cross-domain-policies": "none",
      "x-xss-protection": "0",
    };
    for (const url of ["/api/health", "/api/nope", "/api/streaks/current?userAddress=not-an-address"]) {
      const response = await t.app.inject({ method: "GET", url, headers: { "x-request-id": "fail-1" } });
      expect(response.headers, url).toMatchObject(apiSet);
      for (const name of Object.keys(documentOnly)) expect(response.headers[name], `${url} ${name}`).toBeUndefined();
      expect(response.headers["x-request-id"], url).toBe("fail-1");
    }
    const first = await t.app.inject({ method: "GET", url: "/api/docs" });
    const location = first.headers.location;
    const docs = first.statusCode === 302 && typeof location === "string" ? await t.app.inject({ method: "GET", url: new URL(location, "http://api/api/docs").pathname }) : first;
    expect(docs.statusCode).toBe(200);
    expect(docs.headers["content-type"]).toContain("text/html");
    expect(docs.headers).toMatchObject({ ...apiSet, ...documentOnly });
    const invite = await t.app.inject({ method: "GET", url: "/api/invite?referralCode=ABCD2345" });
    expect(invite.statusCode).toBe(200);
    expect(invite.headers).toMatchObject(documentOnly);
    expect(invite.headers["x-frame-options"]).toBeUndefined();
  });

  it("allows CORS (with credentials) only for configured origins", async () => {
    const allowed = await t.app.inject({
      method: "OPTIONS",
      url: "/api/auth/nonce",
      headers: { origin: "https://app.oro.example", "access-control-request-method": "GET" },
    });
    expect(allowed.headers["access-control-allow-origin"]).toBe("https://app.oro.example");
    expect(allowed.headers["access-control-allow-credentials"]).toBe("true");
    const refused = await t.app.inject({ method: "GET", url: "/api/health", headers: { origin: "https://evil.example" } });
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
    // A request without an Origin (same-origin, or a server) gets no CORS header at all; one from an allowed origin does.
    const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => name.startsWith("access-control-"));
    expect(corsHeaders((await t.app.inject({ method: "GET", url: "/api/health" })).headers)).toEqual([]);
    const fromApp = await t.app.inject({ method: "GET", url: "/api/health", headers: { origin: "https://app.oro.example" } });
    expect(fromApp.headers).toMatchObject({ "access-control-allow-origin": "https://app.oro.example", "access-control-allow-credentials": "true" });
    expect(fromApp.headers["access-control-expose-headers"]).toContain("retry-after");
  });

  it("answers an unknown route with a JSON 404", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/nope" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: "NOT_FOUND" });
  });

  it("serves the OpenAPI document and the docs page at /api/docs", async () => {
    const json = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(json.statusCode).toBe(200);
    const document = json.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/api/health",
        "/api/ready",
        "/api/auth/nonce",
        "/api/auth/siwe",
        "/api/referral_codes/for_user",
        "/api/referrals/refer_with_signature",
        "/api/referrals/oro-earned",
      ]),
    );
    const page = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect([200, 302]).toContain(page.statusCode);
  });
});

describe("sign-in domains", () => {
  it("accepts sign-in messages only for the configured domains", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    for (const [domain, status] of [["phish.example", 401], ["oro.example", 200]] as const) {
      const message = siweMessage({ address: account.address, nonce: await fetchNonce(t.app), domain });
      const response = await t.app.inject({
        method: "POST",
        url: "/api/auth/siwe",
        payload: { message, signature: await account.signMessage({ message }), address: account.address },
      });
      expect(response.statusCode).toBe(status);
      if (status === 401) expect(response.json()).toMatchObject({ error: "SIWE_DOMAIN_MISMATCH" });
    }
  });
});

describe("rate limits", () => {
  it("limits requests per wallet address (429 with a JSON error and retry-after)", async () => {
    const user = await newUser(t.app);
    const url = `/api/referral_codes/for_user?userAddress=${user.address}&app=oro`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.app.inject({ method: "GET", url, headers: bearer(user.token) })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await t.app.inject({ method: "GET", url, headers: bearer(user.token) });
    expect(limited.json()).toMatchObject({ error: "RATE_LIMITED" });
    expect(limited.headers["retry-after"]).toBeDefined();
    // Another address from the same client is not affected by that address's limit.
    const other = await newUser(t.app);
    const fine = await t.app.inject({
      method: "GET",
      url: `/api/referral_codes/for_user?userAddress=${other.address}&app=oro`,
      headers: bearer(other.token),
    });
    expect(fine.statusCode).toBe(200);
  });

  it("limits requests per client IP across routes", async () => {
    const ip = "203.0.113.7";
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) {
      statuses.push((await t.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: ip })).statusCode);
    }
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(statuses[40]).toBe(429);
    // The budget's headers come with the refusal, not with every answer within the budget.
    const refusal = await t.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: ip });
    expect(refusal.headers).toMatchObject({ "x-ratelimit-limit": "40", "x-ratelimit-remaining": "0" });
    expect(refusal.headers["retry-after"]).toBeDefined();
    const within = await t.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: "203.0.113.9" });
    expect(Object.keys(within.headers).filter((name) => name.startsWith("x-ratelimit-"))).toEqual([]);
    const otherIp = await t.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: "203.0.113.8" });
    expect(otherIp.statusCode).toBe(200);
    // Health checks are never limited.
    expect((await t.app.inject({ method: "GET", url: "/api/health", remoteAddress: ip })).statusCode).toBe(200);
  });
});
