import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "./helpers/database.js";

const INTERVAL_MS = 400;
const TIMEOUT_MS = 1_000;

/** The test database with its readiness checks counted, and a switch that makes them fail or hang (PGlite's stand-in for a server that is gone). */
function observed(db: TestDatabase) {
  const state = { checks: 0, mode: "up" as "up" | "refusing" | "hanging" };
  const run: Database["run"] = (statement, values) => {
    if (statement.name === "readiness_ping") {
      state.checks++;
      if (state.mode === "refusing") return Promise.reject(new Error("connection refused"));
      if (state.mode === "hanging") return new Promise(() => {});
    }
    return db.database.run(statement, values);
  };
  return { state, testDatabase: { ...db, database: { ...db.database, run } } };
}

const ready = (t: TestApp, remoteAddress = "198.51.100.7") => t.app.inject({ method: "GET", url: "/api/ready", remoteAddress });

/** Asks until the answer has `status`, at most `withinMs`: how long it took. */
async function untilStatus(t: TestApp, status: number, withinMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const answer = await ready(t);
    if (answer.statusCode === status) return performance.now() - started;
    if (performance.now() - started > withinMs) throw new Error(`GET /api/ready still ${answer.statusCode} after ${withinMs} ms (waiting for ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let db: TestDatabase;
let t: TestApp;
let database: ReturnType<typeof observed>;
beforeAll(async () => {
  db = await createTestDatabase();
  database = observed(db);
  t = await createTestApp({
    testDatabase: database.testDatabase,
    env: { READY_CHECK_INTERVAL: `${INTERVAL_MS}ms`, READY_CHECK_TIMEOUT: `${TIMEOUT_MS}ms`, RATE_LIMIT_READY_PER_IP: "1000", RATE_LIMIT_PER_IP: "3" },
  });
});
afterAll(async () => {
  await t.close();
  await db.drop();
});

describe("GET /api/ready", () => {
  it("answers a flood with one database check per interval, in the shape health checkers read", async () => {
    // Ready first (a connection open), then past the interval: the flood finds no outcome to reuse.
    await untilStatus(t, 200, 30_000);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
    const before = database.state.checks;
    const answers = await Promise.all(Array.from({ length: 50 }, () => ready(t)));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ status: "ready", database: "ok" });
    }
    expect(database.state.checks - before).toBe(1);
    // Past the interval, the next caller checks again.
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
    await Promise.all(Array.from({ length: 10 }, () => ready(t)));
    expect(database.state.checks - before).toBe(2);
  });

  it("goes not-ready within the interval and the timeout when the database refuses or hangs, and ready again once it answers", async () => {
    for (const mode of ["refusing", "hanging"] as const) {
      await untilStatus(t, 200, 30_000);
      database.state.mode = mode;
      const tookMs = await untilStatus(t, 503, INTERVAL_MS + TIMEOUT_MS + 1_000);
      expect(tookMs, mode).toBeLessThan(INTERVAL_MS + TIMEOUT_MS + 1_000);
      const answer = await ready(t);
      expect(answer.json()).toEqual({ error: "NOT_READY", message: "the database does not answer" });
      database.state.mode = "up";
      await untilStatus(t, 200, INTERVAL_MS + TIMEOUT_MS + 1_000);
    }
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "on PostgreSQL: not ready while the server refuses the database's connections, ready again when it takes them",
    async () => {
      const serverUrl = process.env.DATABASE_URL;
      if (!serverUrl || !db.url) throw new Error("no PostgreSQL");
      const name = new URL(db.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        await untilStatus(t, 200, 30_000);
        await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
        await untilStatus(t, 503, INTERVAL_MS + TIMEOUT_MS + 5_000);
        await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
        await untilStatus(t, 200, INTERVAL_MS + TIMEOUT_MS + 5_000);
      } finally {
        await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`).catch(() => undefined);
        await admin.end();
      }
    },
  );

  it("has a budget per client address of its own: a checker over it gets 429, others and the app's routes are not touched", async () => {
    const limited = await createTestApp({ testDatabase: db, env: { RATE_LIMIT_READY_PER_IP: "5", RATE_LIMIT_PER_IP: "3" } });
    try {
      const checker = "203.0.113.20";
      for (let i = 0; i < 5; i++) expect((await ready(limited, checker)).statusCode).toBe(200);
      const refused = await ready(limited, checker);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: "RATE_LIMITED" });
      expect(refused.headers["retry-after"]).toBeDefined();
      expect((await ready(limited, "203.0.113.21")).statusCode).toBe(200);
      // The checker's address still has the whole budget of the app's routes.
      for (let i = 0; i < 3; i++) {
        expect((await limited.app.inject({ method: "GET", url: "/api/user/uno_rewards/terms", remoteAddress: checker })).statusCode).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });
});

describe("GET /api/live (the container's healthcheck)", () => {
  it("is 503 until the database has answered once, then 200 through a database outage, so an outage replaces no replica", async () => {
    const fresh = await createTestDatabase();
    const watched = observed(fresh);
    watched.state.mode = "refusing";
    const replica = await createTestApp({ testDatabase: watched.testDatabase, env: { READY_CHECK_INTERVAL: `${INTERVAL_MS}ms`, READY_CHECK_TIMEOUT: `${TIMEOUT_MS}ms` } });
    const live = async () => (await replica.app.inject({ method: "GET", url: "/api/live", remoteAddress: "198.51.100.8" })).statusCode;
    try {
      // Never ready since it started (a bad build of a rolling update, a database never reached): not live.
      expect(await live()).toBe(503);
      watched.state.mode = "up";
      await expect.poll(live, { timeout: 30_000, interval: 50 }).toBe(200);
      // The database goes away: not ready, still live.
      watched.state.mode = "hanging";
      await expect.poll(async () => (await replica.app.inject({ method: "GET", url: "/api/ready", remoteAddress: "198.51.100.8" })).statusCode, { timeout: 30_000, interval: 50 }).toBe(503);
      expect(await live()).toBe(200);
    } finally {
      watched.state.mode = "up";
      await replica.close();
      await fresh.drop();
    }
  });
});
