import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createHttpIndexerClient } from "../src/services/indexer/client.js";
// The answer as the API builds it (its JSON has the same fields: cachedAt is already a string).
import type { StreakView as Streak } from "../src/services/streaks/streaks.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

const indexer = new FakeIndexer();
let t: TestApp;
let human = 5_000n;

const newAddress = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`;

beforeAll(async () => {
  t = await createTestApp({ indexer, env: { RATE_LIMIT_PER_ADDRESS: "1000" } });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  indexer.down = false;
  indexer.wait = 86_400;
});
afterEach(() => {
  vi.useRealTimers();
});

async function current(address: string, query = "", app = t.app) {
  return app.inject({ method: "GET", url: `/api/streaks/current?userAddress=${address}${query}` });
}

describe("GET /api/streaks/current", () => {
  it("answers the indexer's streak once, then from the cache", async () => {
    const address = newAddress();
    const now = Math.floor(Date.now() / 1000);
    indexer.mint(address, ++human, now - 86_400);
    indexer.mint(address, human, now - 60);

    const before = indexer.calls;
    const first = await current(address);
    expect(first.statusCode).toBe(200);
    const streak = first.json<Streak>();
    expect(streak).toMatchObject({
      address,
      currentStreak: 2,
      longestStreak: 2,
      numOfMints: 2,
      lastMintedAt: now - 60,
      nextMintAt: now - 60 + 86_400,
      streakExpiresAt: now - 60 + 2 * 86_400,
      stale: false,
    });
    expect(streak.nullifierHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(indexer.calls).toBe(before + 1);

    indexer.mint(address, human, now);
    const second = await current(address);
    expect(second.json<Streak>()).toMatchObject({ currentStreak: 2, stale: false, cachedAt: streak.cachedAt });
    expect(indexer.calls).toBe(before + 1);
  });

  it("answers zeros for an address that never claimed, and accepts a checksummed address", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const response = await current(account.address);
    expect(response.statusCode).toBe(200);
    expect(response.json<Streak>()).toMatchObject({
      address: account.address.toLowerCase(),
      nullifierHash: null,
      currentStreak: 0,
      lastMintedAt: null,
      nextMintAt: null,
    });
  });

  it("reads through with bypassCache=true and keeps the new answer", async () => {
    const address = newAddress();
    indexer.mint(address, ++human, Math.floor(Date.now() / 1000) - 86_400);
    expect((await current(address)).json<Streak>().numOfMints).toBe(1);
    indexer.mint(address, human);
    expect((await current(address)).json<Streak>().numOfMints).toBe(1);

    const before = indexer.calls;
    const bypassed = await current(address, "&bypassCache=true");
    expect(bypassed.json<Streak>()).toMatchObject({ numOfMints: 2, currentStreak: 2, stale: false });
    expect(indexer.calls).toBe(before + 1);
    expect((await current(address)).json<Streak>().numOfMints).toBe(2);
    expect(indexer.calls).toBe(before + 1);
  });

  it("clear-streak-cache drops the address's answers (streak and claims), and no other address's", async () => {
    const owner = await newUser(t.app);
    const address = owner.address;
    const other = newAddress();
    indexer.mint(address, ++human);
    indexer.mint(other, ++human);
    await current(address);
    await current(other);
    await t.app.inject({ method: "GET", url: `/api/streaks/claims?userAddress=${address}&limit=1` });

    const url = `/api/streaks/clear-streak-cache?userAddress=${address}`;
    // Only the owner's session clears (anyone else could wipe the copy served while the indexer is down).
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url, headers: bearer((await newUser(t.app)).token) })).statusCode).toBe(403);
    const cleared = await t.app.inject({ method: "GET", url, headers: bearer(owner.token) });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ cleared: true });

    const before = indexer.calls;
    await current(address);
    await t.app.inject({ method: "GET", url: `/api/streaks/claims?userAddress=${address}&limit=1` });
    expect(indexer.calls).toBe(before + 2);
    await current(other);
    expect(indexer.calls).toBe(before + 2);
  });

  it("serves the last answer flagged stale while the indexer is down, and 503 for an address never cached", async () => {
    const address = newAddress();
    indexer.mint(address, ++human);
    const fresh = (await current(address)).json<Streak>();
    indexer.down = true;

    const bypassed = await current(address, "&bypassCache=true");
    expect(bypassed.statusCode).toBe(200);
    expect(bypassed.json<Streak>()).toMatchObject({ currentStreak: 1, stale: true, cachedAt: fresh.cachedAt });

    const unknown = await current(newAddress());
    expect(unknown.statusCode).toBe(503);
    expect(unknown.json()).toMatchObject({ error: "STREAK_UNAVAILABLE", message: expect.stringContaining("indexer") as string });

    indexer.down = false;
    expect((await current(address, "&bypassCache=true")).json<Streak>().stale).toBe(false);
  });

  it("serves stale once the entry is older than the cache time and the indexer is down", async () => {
    const address = newAddress();
    indexer.mint(address, ++human);
    await current(address);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    indexer.down = true;
    const response = await current(address);
    expect(response.json<Streak>()).toMatchObject({ stale: true, currentStreak: 1 });
  });

  it("shows a cached streak as lapsed (0) once its expiry has passed", async () => {
    indexer.wait = 10;
    const address = newAddress();
    indexer.mint(address, ++human);
    expect((await current(address)).json<Streak>().currentStreak).toBe(1);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 25_000 });
    const lapsed = (await current(address)).json<Streak>();
    expect(lapsed).toMatchObject({ currentStreak: 0, longestStreak: 1, stale: false });
  });

  it("answers 400 naming the field and the rule", async () => {
    const bad = await current("0x1234");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "VALIDATION_ERROR", issues: [{ field: "querystring.userAddress", rule: "invalid_format" }] });
    const bypass = await current(newAddress(), "&bypassCache=yes");
    expect(bypass.json()).toMatchObject({ issues: [{ field: "querystring.bypassCache" }] });
    const missing = await t.app.inject({ method: "GET", url: "/api/streaks/clear-streak-cache" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ issues: [{ field: "querystring.userAddress" }] });
  });
});

describe("GET /api/streaks/claims", () => {
  it("lists the newest claims with the indexer's fields, limited, through the cache", async () => {
    const address = newAddress();
    const now = Math.floor(Date.now() / 1000);
    indexer.mint(address, ++human, now - 86_400);
    indexer.mint(address, human, now);
    const response = await t.app.inject({ method: "GET", url: `/api/streaks/claims?userAddress=${address}&limit=1` });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ claims: Record<string, unknown>[]; stale: boolean }>();
    expect(body.stale).toBe(false);
    expect(body.claims).toEqual([
      expect.objectContaining({ receiver: address, timestamp: now, amount: "500000000000000000", numOfMints: 2, streak: 2, logIndex: 0 }),
    ]);
    const all = await t.app.inject({ method: "GET", url: `/api/streaks/claims?userAddress=${address}` });
    expect(all.json<{ claims: unknown[] }>().claims).toHaveLength(2);
    const none = await t.app.inject({ method: "GET", url: `/api/streaks/claims?userAddress=${newAddress()}&limit=1` });
    expect(none.json()).toMatchObject({ claims: [] });
  });

  it("refuses a limit outside 1..100", async () => {
    for (const limit of ["0", "101", "ten"]) {
      const response = await t.app.inject({ method: "GET", url: `/api/streaks/claims?userAddress=${newAddress()}&limit=${limit}` });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ issues: [{ field: "querystring.limit" }] });
    }
  });
});

describe("an indexer that hangs", () => {
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
    const response = await current(newAddress(), "", hanging.app);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "STREAK_UNAVAILABLE" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("the cache in the database, shared by two API processes", () => {
  let first: TestApp;
  let second: TestApp;
  const shared = new FakeIndexer();
  beforeAll(async () => {
    first = await createTestApp({ indexer: shared, env: { STREAK_CACHE: "database" } });
    second = await createTestApp({ indexer: shared, env: { STREAK_CACHE: "database" }, testDatabase: first.db });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("an answer one process fetched is served by the other; a clear in one reaches the other", async () => {
    const owner = await newUser(second.app);
    const address = owner.address;
    shared.mint(address, ++human);
    expect((await current(address, "", first.app)).json<Streak>().numOfMints).toBe(1);
    const before = shared.calls;
    shared.mint(address, human);
    expect((await current(address, "", second.app)).json<Streak>().numOfMints).toBe(1);
    expect((await current(address, "", first.app)).json<Streak>().numOfMints).toBe(1);
    expect(shared.calls).toBe(before);

    await second.app.inject({ method: "GET", url: `/api/streaks/clear-streak-cache?userAddress=${address}`, headers: bearer(owner.token) });
    // The other process drops its own copy when the broadcast arrives (at once on PGlite: one process).
    const deadline = Date.now() + 3_000;
    let seen = 0;
    while (Date.now() < deadline) {
      seen = (await current(address, "", first.app)).json<Streak>().numOfMints;
      if (seen === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toBe(2);
    const rows = await first.db.database.prisma.streakCacheEntry.findMany({ where: { address } });
    expect(rows.map((row) => row.kind)).toEqual(["current"]);
  });

  it("serves stale from the table when the indexer is down", async () => {
    const address = newAddress();
    shared.mint(address, ++human);
    await current(address, "", first.app);
    shared.down = true;
    try {
      const response = await current(address, "&bypassCache=true", second.app);
      expect(response.json<Streak>()).toMatchObject({ stale: true, numOfMints: 1 });
    } finally {
      shared.down = false;
    }
  });
});

describe("rate limits of the streak routes", () => {
  it("limit what reaches the indexer (bypass per client IP when anonymous, clear per owner), not cached reads", async () => {
    const limited = await createTestApp({ indexer, env: { RATE_LIMIT_PER_ADDRESS: "3" }, testDatabase: t.db });
    try {
      const owner = await newUser(limited.app);
      const address = owner.address;
      indexer.mint(address, ++human);
      const cached = [];
      for (let i = 0; i < 6; i++) cached.push((await current(address, "", limited.app)).statusCode);
      expect(cached).toEqual([200, 200, 200, 200, 200, 200]);
      const bypassed = [];
      for (let i = 0; i < 4; i++) bypassed.push((await current(address, "&bypassCache=true", limited.app)).statusCode);
      expect(bypassed).toEqual([200, 200, 200, 429]);
      // Anonymous requests spent the client IP's budget, not the owner's: the owner still clears.
      const url = `/api/streaks/clear-streak-cache?userAddress=${address}`;
      for (let i = 0; i < 3; i++) expect((await limited.app.inject({ method: "GET", url, headers: bearer(owner.token) })).statusCode).toBe(200);
      const clear = await limited.app.inject({ method: "GET", url, headers: bearer(owner.token) });
      expect(clear.statusCode).toBe(429);
      expect(clear.json()).toMatchObject({ error: "RATE_LIMITED" });
    } finally {
      await limited.close();
    }
  });
});
