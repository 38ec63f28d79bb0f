import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisServerBinary, startRedisServer, type RedisServer } from "../scripts/redis-server.js";
import { Redis } from "ioredis";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { bearer, signIn } from "./helpers/siwe.js";

// Issue 19: rate limits hold across replicas. Two API processes' worth of apps (one database) count in one Redis
// (Debian's redis-server, started here); without it each counts alone. With the store down the API keeps answering.
if (!redisServerBinary) console.log("redis-server is not installed: the shared rate-limit tests are skipped (apt-get install redis-server)");

const BUDGET = 6;
/** A Redis timeout no load on this machine reaches, for the tests of what is counted. */
const SLOW_MACHINE_TIMEOUT = "30s";
/** One client alternating between the replicas; the statuses it got, in order. */
async function alternate(replicas: TestApp[], requests: number, client: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const replica = replicas[i % replicas.length];
    if (!replica) throw new Error("no replica");
    const response = await replica.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: client });
    statuses.push(response.statusCode);
  }
  return statuses;
}

/**
 * Until a replica's connection to Redis is ready its requests go uncounted (let through, by design): a test starts
 * once each of its replicas counts. On a loaded machine the first requests came before that and a budget ran out late.
 */
async function countingInRedis(replicas: TestApp[]): Promise<void> {
  while (!replicas.every((replica) => replica.app.rateLimitStore.available())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.skipIf(!redisServerBinary)("rate limits across replicas (Redis)", () => {
  let db: TestDatabase;
  let redis: RedisServer | undefined;
  let shared: TestApp[] = [];
  let alone: TestApp[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await startRedisServer();
    // What these tests count is exactness, not speed: a count that took longer than the store's timeout (250 ms by
    // default) is let through uncounted by design, which a loaded CI machine reached (18 of 24 let through at once).
    const env = { RATE_LIMIT_PER_IP: String(BUDGET), RATE_LIMIT_REDIS_URL: redis.url, RATE_LIMIT_REDIS_TIMEOUT: SLOW_MACHINE_TIMEOUT };
    shared = [await createTestApp({ testDatabase: db, env }), await createTestApp({ testDatabase: db, env })];
    alone = [
      await createTestApp({ testDatabase: db, env: { RATE_LIMIT_PER_IP: String(BUDGET) } }),
      await createTestApp({ testDatabase: db, env: { RATE_LIMIT_PER_IP: String(BUDGET) } }),
    ];
    await countingInRedis(shared);
  });
  afterAll(async () => {
    for (const replica of [...shared, ...alone]) await replica.close();
    await redis?.stop();
    await db.drop();
  });

  it("a client alternating between two replicas gets one budget, not two", async () => {
    const statuses = await alternate(shared, BUDGET + 2, "203.0.113.10");
    expect(statuses.slice(0, BUDGET).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(BUDGET)).toEqual([429, 429]);
  });

  it("requests arriving together at both replicas get exactly one budget (each one's count comes from Redis)", async () => {
    // The checks of one turn of a replica's event loop go to Redis in one call: the count stays exact per request.
    const client = "203.0.113.13";
    const requests = Array.from({ length: 4 * BUDGET }, async (_, i) => {
      const replica = shared[i % 2];
      if (!replica) throw new Error("no replica");
      const response = await replica.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: client });
      return response.statusCode;
    });
    const statuses = await Promise.all(requests);
    expect(shared.map((replica) => replica.app.rateLimitStore.available()), "both replicas' counts reached Redis").toEqual([true, true]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(BUDGET);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3 * BUDGET);
  });

  it("a wallet's own budget holds across replicas and client addresses (the per-address limit)", async () => {
    const env = { RATE_LIMIT_PER_ADDRESS: "4", RATE_LIMIT_REDIS_URL: redis?.url ?? "", RATE_LIMIT_REDIS_TIMEOUT: SLOW_MACHINE_TIMEOUT };
    const [first, second] = [await createTestApp({ testDatabase: db, env }), await createTestApp({ testDatabase: db, env })];
    const replicas = [first, second];
    try {
      // CI's stress run saw the second replica's first request let through: it came before its connection was ready.
      await countingInRedis(replicas);
      const account = privateKeyToAccount(generatePrivateKey());
      const token = await signIn(first.app, account);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        // A new client address each time: only the wallet's budget can stop these.
        const response = await (i % 2 === 0 ? first : second).app.inject({
          method: "GET",
          url: `/api/referral_codes/for_user?userAddress=${account.address}&app=oro`,
          headers: bearer(token),
          remoteAddress: `198.51.100.${i + 1}`,
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      for (const replica of replicas) await replica.close();
    }
  });

  it("a session route's two counts (per IP and per wallet) go to Redis in one call, one request at a time", async () => {
    const env = { RATE_LIMIT_REDIS_URL: redis?.url ?? "", RATE_LIMIT_REDIS_TIMEOUT: SLOW_MACHINE_TIMEOUT };
    const replica = await createTestApp({ testDatabase: db, env });
    const admin = new Redis(redis?.url ?? "");
    /** Script calls Redis has run so far (the store's script goes by EVALSHA, or EVAL the first time). */
    const scriptCalls = async () => {
      const stats = await admin.info("commandstats");
      return [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    };
    try {
      await countingInRedis([replica]);
      const account = privateKeyToAccount(generatePrivateKey());
      const token = await signIn(replica.app, account);
      let before = 0;
      // The first request reads the session from the database, so its wallet count comes a turn later (a second call);
      // from then on the session is in the replica's cache.
      for (let i = 0; i < 4; i += 1) {
        if (i === 1) before = await scriptCalls();
        const response = await replica.app.inject({
          method: "GET",
          url: `/api/referral_codes/for_user?userAddress=${account.address}&app=oro`,
          headers: bearer(token),
          remoteAddress: "198.51.100.40",
        });
        expect(response.statusCode).toBe(200);
      }
      expect((await scriptCalls()) - before).toBe(3);
      const wallet = await admin.keys("oro-rate-limit:*address:*");
      expect(wallet.map((key) => key.split(":").at(-1))).toContain(account.address.toLowerCase());
      // The per-wallet limit's keys are named, not "undefinedundefined-address:…".
      expect(wallet).toContain(`oro-rate-limit:own-address:${account.address.toLowerCase()}`);
    } finally {
      admin.disconnect();
      await replica.close();
    }
  });

  it("a count slower than RATE_LIMIT_REDIS_TIMEOUT lets the request through at once, uncounted", async () => {
    const replica = await createTestApp({ testDatabase: db, env: { RATE_LIMIT_REDIS_URL: redis?.url ?? "", RATE_LIMIT_REDIS_TIMEOUT: "200ms" } });
    const admin = new Redis(redis?.url ?? "");
    try {
      await countingInRedis([replica]);
      // Redis holds every client's writes (the count's script among them) for a minute: the count can only time out.
      await admin.call("CLIENT", "PAUSE", "60000", "WRITE");
      const started = Date.now();
      const response = await replica.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: "203.0.113.16" });
      expect(response.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(replica.app.rateLimitStore.available()).toBe(false);
    } finally {
      await admin.call("CLIENT", "UNPAUSE");
      admin.disconnect();
      await replica.close();
    }
  });

  it("without the shared store each replica counts alone (the embedded default): two budgets", async () => {
    const statuses = await alternate(alone, BUDGET * 2, "203.0.113.11");
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it("a store that answers but refuses to count lets requests through and reports itself down until it counts again", async () => {
    // Redis out of memory (noeviction) refuses every write: the counts fail although the connection is fine.
    const admin = new Redis(redis?.url ?? "");
    const storeUp = async (replica: TestApp) => (await replica.app.metrics.getSingleMetricAsString("oro_api_rate_limit_store_up")).trim().split(/\s/).at(-1);
    try {
      const [first] = shared;
      if (!first) throw new Error("no replica");
      expect(await storeUp(first)).toBe("1");
      await admin.config("SET", "maxmemory-policy", "noeviction");
      await admin.config("SET", "maxmemory", "1");
      const statuses = await alternate(shared, BUDGET + 2, "203.0.113.14");
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(await storeUp(first)).toBe("0");
      await admin.config("SET", "maxmemory", "0");
      expect(await alternate([first], 1, "203.0.113.15")).toEqual([200]);
      expect(await storeUp(first)).toBe("1");
    } finally {
      await admin.config("SET", "maxmemory", "0");
      admin.disconnect();
    }
  });

  it("with the store down the API keeps answering (not rate limited) instead of failing", async () => {
    const client = "203.0.113.12";
    expect((await alternate(shared, BUDGET + 1, client)).at(-1)).toBe(429);
    const exited = new Promise((resolve) => redis?.process.once("exit", resolve));
    redis?.process.kill("SIGKILL");
    await exited;
    const statuses = await alternate(shared, 4, client);
    expect(statuses).toEqual([200, 200, 200, 200]);
  });
});
