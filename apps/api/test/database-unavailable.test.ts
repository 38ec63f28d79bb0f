import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.js";
import { hotStatement, isDatabaseUnavailable, openDatabase, type Database } from "../src/db/database.js";
import { testConfig } from "./helpers/app.js";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "./helpers/database.js";

// A database that does not answer (gone, restarting, every connection busy) is a dependency down: a fast 503 the
// client retries, never a 500 that reads as a bug and pages as one.
describe("what pg and Prisma throw when the database does not answer", () => {
  it("is told apart from a bug, through the causes it is wrapped in", () => {
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("driver adapter error", { cause: Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }) }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("Unique constraint failed"), { code: "P2002" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("cannot read properties of undefined"))).toBe(false);
  });
});

// The one connection a replica's pool has is held by a slow statement: the next request waits the pool's connection
// timeout (3 s), then answers 503 with retry-after; once the connection is back, the same request succeeds.
describe.runIf(testDatabaseKind() === "postgres")("a request while the database does not answer", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase({ kind: "postgres", url: testDatabase.url ?? "", poolSize: 1 });
    app = await buildApp({ config: testConfig(), database, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await testDatabase.drop();
  });

  it("answers 503 DATABASE_UNAVAILABLE with retry-after, then 200 once it answers again", async () => {
    const held = database.run(hotStatement<[], { held: string }>("hold_the_only_connection", "SELECT pg_sleep(6)::text AS held"), []);
    const refused = await app.inject({ method: "GET", url: "/api/auth/nonce" });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: "DATABASE_UNAVAILABLE" });
    expect(refused.headers["retry-after"]).toBe("1");
    await held;
    const answered = await app.inject({ method: "GET", url: "/api/auth/nonce" });
    expect(answered.statusCode).toBe(200);
  });
});
