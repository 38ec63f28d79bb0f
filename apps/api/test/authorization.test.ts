import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../src/services/auth/auth.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { buildUrl, operationsOf, seededRandom, validRequestParts, type Operation } from "./helpers/openapi-requests.js";
import { newUser, type TestUser } from "./helpers/referrals.js";

// The authorization matrix, generated from the routes' declared security: every route that needs a session
// × { no session, another user's session, an expired one, a forged one, a signed-out one } answers 401 or
// 403, by bearer token and by cookie. A new route is covered by declaring its security; one that forgets to
// declare it fails the check below that lists the routes acting for a user.
let t: TestApp;
let operations: Operation[];
let victim: TestUser;
let other: TestUser;
let expired: TestUser;
let signedOut: TestUser;
let ids: Record<string, string>;

beforeAll(async () => {
  // One address sends every refused session here: its budgets (session refusals too: test/session-refusals.test.ts) out of reach.
  t = await createTestApp({ indexer: new FakeIndexer(), env: { RATE_LIMIT_PER_IP: "1000000", RATE_LIMIT_PER_ADDRESS: "1000000", RATE_LIMIT_SESSION_REFUSALS_PER_IP: "1000000" } });
  operations = operationsOf(t.app);
  [victim, other, expired, signedOut] = [await newUser(t.app), await newUser(t.app), await newUser(t.app), await newUser(t.app)];
  await t.db.database.prisma.session.update({ where: { tokenHash: hashToken(expired.token) }, data: { expiresAt: new Date(Date.now() - 1_000) } });
  await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { authorization: `Bearer ${signedOut.token}` } });
  const poll = await t.db.database.prisma.poll.create({
    data: { question: { en: "Matrix?" }, options: { create: [{ position: 0, label: { en: "a" } }, { position: 1, label: { en: "b" } }] } },
    include: { options: true },
  });
  ids = { id: poll.id, optionId: poll.options[0]?.id ?? "" };
});
afterAll(async () => {
  await t.close();
});

type Case = "no session" | "another user's session" | "expired session" | "forged token" | "signed-out session";

function tokenFor(which: Case): string | undefined {
  switch (which) {
    case "no session":
      return undefined;
    case "another user's session":
      return other.token;
    case "expired session":
      return expired.token;
    case "forged token":
      return "forged-token-that-was-never-issued";
    case "signed-out session":
      return signedOut.token;
  }
}

const CASES: Case[] = ["no session", "another user's session", "expired session", "forged token", "signed-out session"];

describe("authorization matrix (from the OpenAPI document's declared security)", () => {
  it("covers every route that acts for a user: they all declare a session", () => {
    const needing = operations.filter((operation) => operation.needsSession).map((operation) => `${operation.method} ${operation.path}`);
    // Every route whose query names the user it acts for must need a session, except the public streak reads
    // and is-in-us (public facts, no user data).
    const public_ = new Set(["GET /api/streaks/current", "GET /api/streaks/claims", "GET /api/user/is-in-us"]);
    for (const operation of operations) {
      const key = `${operation.method} ${operation.path}`;
      const namesUser = operation.parameters.some((parameter) => parameter.name === "userAddress");
      if (namesUser && !public_.has(key)) expect(needing, key).toContain(key);
    }
    expect(needing.length).toBeGreaterThanOrEqual(14);
  });

  it("answers 401 or 403 for each case, by bearer token and by cookie", async () => {
    const random = seededRandom(13);
    const wrong: string[] = [];
    let checked = 0;
    for (const operation of operations.filter((candidate) => candidate.needsSession)) {
      const actsForAddress = operation.parameters.some((parameter) => parameter.name === "userAddress");
      for (const which of CASES) {
        // Without a userAddress, another user's session is simply that user's (e.g. GET /api/auth/session).
        if (which === "another user's session" && !actsForAddress) continue;
        for (const carrier of ["bearer", "cookie"] as const) {
          const { query, pathValues, body } = validRequestParts(operation, { random, userAddress: victim.address, ids });
          const token = tokenFor(which);
          const headers: Record<string, string> = {};
          if (token) headers[carrier === "bearer" ? "authorization" : "cookie"] = carrier === "bearer" ? `Bearer ${token}` : `oro_session=${token}`;
          const response = await t.app.inject({
            method: operation.method,
            url: buildUrl(operation.path, pathValues, query),
            headers,
            ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
          });
          checked++;
          const expected = which === "another user's session" ? 403 : 401;
          if (response.statusCode !== expected) {
            wrong.push(`${operation.method} ${operation.path} with ${which} (${carrier}): ${response.statusCode} ${response.body.slice(0, 160)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
