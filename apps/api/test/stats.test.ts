import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createHttpIndexerClient } from "../src/services/indexer/client.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";

interface TokenStats {
  holders: number;
  totalSupply: string;
  lastEventAt: number | null;
  stale: boolean;
  cachedAt: string;
}

const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const HALF_ORO = 500_000_000_000_000_000n;
const stats = (app: TestApp) => app.app.inject({ method: "GET", url: "/api/stats" });

describe("GET /api/stats", () => {
  const indexer = new FakeIndexer();
  let t: TestApp;
  // The cache's TTL is a minute; the tests move the clock past it rather than wait (a loaded machine can take
  // longer than a short TTL between two requests). The stale window stays the default 7 days.
  const TTL_MS = 60_000;
  const pastTtl = () => vi.setSystemTime(Date.now() + TTL_MS + 1_000);
  beforeAll(async () => {
    // One clock for the whole block (the cache keeps what earlier tests put in it): Date runs on, and jumps.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    t = await createTestApp({ indexer, env: { STREAK_CACHE_TTL: `${TTL_MS}ms` } });
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });
  beforeEach(() => {
    indexer.down = false;
  });

  it("answers 503 STATS_UNAVAILABLE when the indexer is down and nothing is cached", async () => {
    indexer.down = true;
    const response = await stats(t);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "STATS_UNAVAILABLE" });
  });

  it("answers the indexer's holders and supply, then serves them from the cache until the TTL passes", async () => {
    const alice = newAddress();
    indexer.mint(alice, 1n);
    indexer.mint(alice, 1n, Math.floor(Date.now() / 1000) + 1);
    indexer.mint(newAddress(), 2n);
    const before = indexer.calls;
    const first = await stats(t);
    expect(first.statusCode).toBe(200);
    const body = first.json<TokenStats>();
    expect(body).toMatchObject({ holders: 2, totalSupply: (3n * HALF_ORO).toString(), stale: false });
    expect(indexer.calls).toBe(before + 1);

    indexer.mint(newAddress(), 3n);
    const cached = await stats(t);
    expect(cached.json<TokenStats>()).toMatchObject({ holders: 2, cachedAt: body.cachedAt, stale: false });
    expect(indexer.calls).toBe(before + 1);

    pastTtl();
    const refreshed = await stats(t);
    expect(refreshed.json<TokenStats>()).toMatchObject({ holders: 3, totalSupply: (4n * HALF_ORO).toString(), stale: false });
    expect(indexer.calls).toBe(before + 2);
  });

  it("serves the last answer as stale while the indexer is down, and fresh again once it is back", async () => {
    const fresh = (await stats(t)).json<TokenStats>();
    pastTtl();
    indexer.down = true;
    const stale = await stats(t);
    expect(stale.statusCode).toBe(200);
    expect(stale.json<TokenStats>()).toMatchObject({ holders: fresh.holders, totalSupply: fresh.totalSupply, stale: true });
    indexer.down = false;
    indexer.mint(newAddress(), 4n);
    expect((await stats(t)).json<TokenStats>()).toMatchObject({ holders: fresh.holders + 1, stale: false });
  });

  it("asks the indexer once for many simultaneous requests", async () => {
    pastTtl();
    const before = indexer.calls;
    const answers = await Promise.all(Array.from({ length: 20 }, () => stats(t)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(indexer.calls).toBe(before + 1);
  });
});

describe("GET /api/stats with an indexer that hangs", () => {
  let server: Server;
  let hanging: TestApp;
  beforeAll(async () => {
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    hanging = await createTestApp({ indexer: createHttpIndexerClient({ baseUrl: url, timeoutMs: 300 }) });
  });
  afterAll(async () => {
    await hanging.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("gets a 503 within the indexer timeout, not a hang", async () => {
    const started = Date.now();
    const response = await stats(hanging);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "STATS_UNAVAILABLE" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("the indexer's GET /stats over HTTP", () => {
  let server: Server;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ chainId: 31337, totalSupply: "1500000000000000000", holders: 3, humans: 2, mints: 3, amountPerMint: "500000000000000000", waitBetweenMints: 86400, killed: false, referralPayouts: 0, referralPaidOut: "0", lastEventAt: 1_700_000_000 }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("is read by the HTTP client as holders, supply in wei and the newest event", async () => {
    const client = createHttpIndexerClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 2_000 });
    expect(await client.tokenStats()).toEqual({ holders: 3, totalSupply: 1_500_000_000_000_000_000n, lastEventAt: 1_700_000_000 });
  });
});
