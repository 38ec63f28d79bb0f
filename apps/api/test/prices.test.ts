import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addresses, CHAIN_IDS } from "@oro/clients";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";

const oro = addresses[CHAIN_IDS.development].Oro.toLowerCase();
const wld = "0x2cfc85d8e48f8eab294be644d9e25c3030863003";
const unknown = "0x00000000000000000000000000000000000000ee";

describe("GET /api/erc20/token-price with the development source", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("prices the local ORO deterministically, keyed by lower-case address; an unknown token is absent", async () => {
    const response = await t.app.inject({ method: "GET", url: `/api/erc20/token-price?tokenAddresses=${addresses[CHAIN_IDS.development].Oro}&tokenAddresses=${unknown}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ [oro]: { priceUsd: 0.0125, percentChange24hr: 4.2 } });
    const single = await t.app.inject({ method: "GET", url: `/api/erc20/token-price?tokenAddresses=${oro}` });
    expect(single.json()).toEqual(response.json());
  });

  it("answers 400 for a missing, malformed or too long list", async () => {
    const missing = await t.app.inject({ method: "GET", url: "/api/erc20/token-price" });
    expect(missing.json()).toMatchObject({ issues: [{ field: "querystring.tokenAddresses" }] });
    const bad = await t.app.inject({ method: "GET", url: "/api/erc20/token-price?tokenAddresses=0xnope" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ issues: { field: string }[] }>().issues[0]?.field).toBe("querystring.tokenAddresses.0");
    const many = Array.from({ length: 26 }, (_, i) => `tokenAddresses=0x${i.toString(16).padStart(40, "0")}`).join("&");
    expect((await t.app.inject({ method: "GET", url: `/api/erc20/token-price?${many}` })).statusCode).toBe(400);
  });
});

describe("GET /api/erc20/token-price with the HTTP source (a stand-in for the production price API)", () => {
  let source: Server;
  let t: TestApp;
  const asked: { url: string; key: string | undefined }[] = [];
  let down = false;

  beforeAll(async () => {
    source = createServer((request, response) => {
      asked.push({ url: request.url ?? "", key: request.headers["x-cg-pro-api-key"] as string | undefined });
      if (down) {
        response.writeHead(502).end();
        return;
      }
      const url = new URL(request.url ?? "", "http://localhost");
      const tokens = (url.searchParams.get("contract_addresses") ?? "").split(",");
      const quotes: Record<string, { usd: number; usd_24h_change: number | null }> = {};
      if (tokens.includes(oro)) quotes[oro] = { usd: 0.02, usd_24h_change: -1.5 };
      if (tokens.includes(wld)) quotes[wld] = { usd: 1.1, usd_24h_change: null };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(quotes));
    });
    await new Promise<void>((resolve) => source.listen(0, "127.0.0.1", resolve));
    t = await createTestApp({
      env: {
        PRICE_PROVIDER: "http",
        PRICE_API_URL: `http://127.0.0.1:${(source.address() as AddressInfo).port}/api/v3`,
        PRICE_API_KEY: "price-key",
      },
    });
  });
  afterAll(async () => {
    await t.close();
    source.closeAllConnections();
    await new Promise((resolve) => source.close(resolve));
  });
  afterEach(() => {
    vi.useRealTimers();
    down = false;
  });

  const prices = (...tokens: string[]) => t.app.inject({ method: "GET", url: `/api/erc20/token-price?tokenAddresses=${tokens.join(",")}` });

  it("asks the source once a minute for the tokens not cached, with the API key", async () => {
    const first = await prices(oro, wld, unknown);
    expect(first.json()).toEqual({ [oro]: { priceUsd: 0.02, percentChange24hr: -1.5 }, [wld]: { priceUsd: 1.1, percentChange24hr: 0 } });
    expect(asked).toHaveLength(1);
    const url = new URL(asked[0]?.url ?? "", "http://localhost");
    expect(url.pathname).toBe("/api/v3/simple/token_price/world-chain");
    expect(url.searchParams.get("vs_currencies")).toBe("usd");
    expect(url.searchParams.get("include_24hr_change")).toBe("true");
    expect(asked[0]?.key).toBe("price-key");

    // Cached, the unknown token too.
    expect((await prices(wld, unknown)).json()).toEqual({ [wld]: { priceUsd: 1.1, percentChange24hr: 0 } });
    expect(asked).toHaveLength(1);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    await prices(oro);
    expect(asked).toHaveLength(2);
  });

  it("answers 503 PRICE_UNAVAILABLE when the source fails and nothing is cached", async () => {
    down = true;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 });
    const response = await prices(oro);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "PRICE_UNAVAILABLE" });
  });
});
