import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { newUser, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

const REFUSALS = 5;
const WINDOW_MS = 3_000;

let db: TestDatabase;
let t: TestApp;
/** Sessions read from the database: what a request with a token this process does not hold costs. */
const lookups = { count: 0 };
let alice: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  const run: Database["run"] = (statement, values) => {
    if (statement.name === "session_user") lookups.count++;
    return db.database.run(statement, values);
  };
  t = await createTestApp({
    testDatabase: { ...db, database: { ...db.database, run } },
    env: { RATE_LIMIT_SESSION_REFUSALS_PER_IP: String(REFUSALS), RATE_LIMIT_WINDOW: `${WINDOW_MS}ms`, RATE_LIMIT_PER_IP: "1000000", RATE_LIMIT_PER_ADDRESS: "1000000" },
  });
  alice = await newUser(t.app, "alice");
});
afterAll(async () => {
  await t.close();
  await db.drop();
});

/** A session route, as `user` and from `remoteAddress`. */
const codeOf = (headers: Record<string, string>, remoteAddress: string, user: TestUser = alice) =>
  t.app.inject({ method: "GET", url: `/api/referral_codes/for_user?userAddress=${user.address}&app=oro`, headers, remoteAddress });
const randomToken = () => randomBytes(32).toString("base64url");

describe("requests with a session token that is not valid", () => {
  it("refuses a token this API could not have issued without looking it up", async () => {
    const before = lookups.count;
    for (const token of ["forged", "x".repeat(42), "x".repeat(44), `${"a".repeat(42)}=`, `${"a".repeat(42)}.`, "%00".repeat(15)]) {
      for (const headers of [bearer(token), { cookie: `oro_session=${token}` }]) {
        const answer = await codeOf(headers, "192.0.2.10");
        expect(answer.statusCode, token).toBe(401);
        expect(answer.json(), token).toMatchObject({ error: "UNAUTHORIZED" });
      }
    }
    expect(lookups.count - before).toBe(0);
    // They spend nothing of the address's refusals: a token of the right shape is still looked up.
    expect((await codeOf(bearer(randomToken()), "192.0.2.10")).statusCode).toBe(401);
    expect(lookups.count - before).toBe(1);
  });

  it("refuses an address that sent its budget of unknown tokens before any lookup until the window ends; others, and sessions held, go on", async () => {
    const attacker = "198.51.100.66";
    expect((await codeOf(bearer(alice.token), attacker)).statusCode).toBe(200);
    const before = lookups.count;
    for (let i = 0; i < REFUSALS; i++) expect((await codeOf(bearer(randomToken()), attacker)).statusCode).toBe(401);
    expect(lookups.count - before).toBe(REFUSALS);

    const refused = await codeOf(bearer(randomToken()), attacker);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: "RATE_LIMITED" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Cookies too, and routes where a session is optional (the poll list's myVote).
    expect((await codeOf({ cookie: `oro_session=${randomToken()}` }, attacker)).statusCode).toBe(429);
    expect((await t.app.inject({ method: "GET", url: "/api/polls", headers: bearer(randomToken()), remoteAddress: attacker })).statusCode).toBe(429);
    expect(lookups.count - before).toBe(REFUSALS);

    // A session this process holds needs no lookup: it still passes from that address, and without a token nothing changes.
    expect((await codeOf(bearer(alice.token), attacker)).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/polls", remoteAddress: attacker })).statusCode).toBe(200);
    // Another address is looked up as before.
    expect((await codeOf(bearer(randomToken()), "198.51.100.67")).statusCode).toBe(401);
    expect(lookups.count - before).toBe(REFUSALS + 1);

    // Once the window has ended, a token from the address is looked up again.
    const deadline = Date.now() + WINDOW_MS + 10_000;
    let status = 429;
    while (status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await codeOf(bearer(randomToken()), attacker)).statusCode;
    }
    expect(status).toBe(401);
  });
});
