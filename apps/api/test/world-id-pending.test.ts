import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { newUser, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

/**
 * A wallet's pending World ID 4.0 enrolment or move (PUT/GET/DELETE /api/world-id/pending-enrolment): kept until
 * the app sees it land, so that a reinstall or a lost local copy never loses the uniqueness proof World App
 * discloses once.
 */
let t: TestApp;
/** Above what one test asks for one wallet; the last test goes past it. */
const PER_ADDRESS_LIMIT = 30;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS_LIMIT) } });
});
afterAll(async () => {
  await t.close();
});

const SESSION = `session_${"1a".repeat(32)}01${"2b".repeat(31)}`;
const inDays = (days: number) => String(Math.floor(Date.now() / 1000) + days * 86_400);
const IN_30_DAYS = inDays(30);

function enrolment(overrides: Record<string, unknown> = {}) {
  return {
    kind: "enrol",
    idkitSessionId: SESSION,
    uniqueness: {
      nullifier: `0x${"ab".repeat(32)}`,
      nonce: "42",
      expiresAtMin: IN_30_DAYS,
      credentialGenesisIssuedAtMin: "1780272000",
      proof: ["1", "2", "3", "4", `0x${"ff".repeat(32)}`],
    },
    worldId3: null,
    ...overrides,
  };
}

const move = () => enrolment({ kind: "move", worldId3: { merkleRoot: "7", nullifierHash: `0x${"0c".repeat(32)}`, proof: ["1", "2", "3", "4", "5", "6", "7", "8"] } });

const url = (user: TestUser) => `/api/world-id/pending-enrolment?userAddress=${user.address}`;
const put = (user: TestUser, payload: unknown, token = user.token) =>
  t.app.inject({ method: "PUT", url: url(user), headers: bearer(token), payload: payload as Record<string, unknown> });
const get = (user: TestUser, token = user.token) => t.app.inject({ method: "GET", url: url(user), headers: bearer(token) });
const remove = (user: TestUser, token = user.token) => t.app.inject({ method: "DELETE", url: url(user), headers: bearer(token) });

describe("the wallet's pending enrolment", () => {
  it("is kept as sent (numbers answered in decimal), replaced by the next one, and forgotten on DELETE", async () => {
    const user = await newUser(t.app);
    expect((await get(user)).json()).toEqual({ pending: null });

    const kept = await put(user, enrolment());
    expect(kept.statusCode).toBe(200);
    const expected = {
      kind: "enrol",
      idkitSessionId: SESSION,
      uniqueness: {
        nullifier: BigInt(`0x${"ab".repeat(32)}`).toString(),
        nonce: "42",
        expiresAtMin: enrolment().uniqueness.expiresAtMin,
        credentialGenesisIssuedAtMin: "1780272000",
        proof: ["1", "2", "3", "4", ((1n << 256n) - 1n).toString()],
      },
      worldId3: null,
    };
    expect(kept.json()).toEqual({ pending: expected });
    expect((await get(user)).json()).toEqual({ pending: expected });

    // One per wallet: a move replaces the enrolment.
    expect((await put(user, move())).statusCode).toBe(200);
    const replaced = (await get(user)).json<{ pending: { kind: string; worldId3: { nullifierHash: string } } }>();
    expect(replaced.pending.kind).toBe("move");
    expect(replaced.pending.worldId3.nullifierHash).toBe(BigInt(`0x${"0c".repeat(32)}`).toString());
    expect(await t.db.database.prisma.worldIdPendingEnrolment.count({ where: { user: { address: user.address } } })).toBe(1);

    // A move whose 3.0 proof World App has not given yet (3.0 proofs can be asked again; the uniqueness proof cannot).
    expect((await put(user, enrolment({ kind: "move" }))).json()).toMatchObject({ pending: { kind: "move", worldId3: null } });

    expect((await remove(user)).json()).toEqual({ deleted: true });
    expect((await get(user)).json()).toEqual({ pending: null });
    expect((await remove(user)).json()).toEqual({ deleted: false });
  });

  it("belongs to the signed-in wallet alone: 401 without a session, 403 for another wallet's", async () => {
    const owner = await newUser(t.app);
    const other = await newUser(t.app);
    await put(owner, enrolment());
    expect((await t.app.inject({ method: "GET", url: url(owner) })).statusCode).toBe(401);
    for (const response of [await get(owner, other.token), await put(owner, move(), other.token), await remove(owner, other.token)]) {
      expect(response.statusCode).toBe(403);
    }
    expect((await get(owner)).json<{ pending: { kind: string } }>().pending.kind).toBe("enrol");
    expect((await get(other)).json()).toEqual({ pending: null });
  });

  it("refuses bad input with a 400 naming the field, and keeps nothing", async () => {
    const user = await newUser(t.app);
    const u = enrolment().uniqueness;
    const cases: [unknown, string][] = [
      [enrolment({ kind: "claim" }), "body.kind"],
      [enrolment({ idkitSessionId: `session_${"1a".repeat(64)}` }), "body.idkitSessionId"],
      [enrolment({ idkitSessionId: SESSION.toUpperCase() }), "body.idkitSessionId"],
      [enrolment({ uniqueness: { ...u, proof: ["1", "2", "3", "4"] } }), "body.uniqueness.proof"],
      [enrolment({ uniqueness: { ...u, nullifier: (1n << 256n).toString() } }), "body.uniqueness.nullifier"],
      [enrolment({ uniqueness: { ...u, nullifier: `0x${"f".repeat(65)}` } }), "body.uniqueness.nullifier"],
      [enrolment({ uniqueness: { ...u, nonce: "1e3" } }), "body.uniqueness.nonce"],
      [enrolment({ uniqueness: { ...u, nonce: 42 } }), "body.uniqueness.nonce"],
      [enrolment({ uniqueness: { ...u, nonce: "-1" } }), "body.uniqueness.nonce"],
      [enrolment({ uniqueness: { ...u, credentialGenesisIssuedAtMin: (1n << 64n).toString() } }), "body.uniqueness.credentialGenesisIssuedAtMin"],
      [enrolment({ uniqueness: { ...u, extra: "1" } }), "body.uniqueness"],
      [enrolment({ signal: "0x" }), "body"],
      [{ ...move(), kind: "enrol" }, "body.worldId3"],
      [{ ...move(), worldId3: { merkleRoot: "1", nullifierHash: "2", proof: ["1"] } }, "body.worldId3.proof"],
      // The verifier refuses a proof 5 hours past its expiresAtMin: keeping it would help nobody.
      [enrolment({ uniqueness: { ...u, expiresAtMin: String(Math.floor(Date.now() / 1000) - 6 * 3600) } }), "body.uniqueness.expiresAtMin"],
      [enrolment({ uniqueness: { ...u, expiresAtMin: inDays(400) } }), "body.uniqueness.expiresAtMin"],
    ];
    for (const [payload, field] of cases) {
      const response = await put(user, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      const body = response.json<{ error: string; issues?: { field: string }[] }>();
      expect(body.error).toBe("VALIDATION_ERROR");
      expect(body.issues?.map((issue) => issue.field), field).toContain(field);
    }
    expect((await get(user)).json()).toEqual({ pending: null });
  });

  it("is not answered once its uniqueness proof can no longer land, and the hourly purge deletes it and nothing else", async () => {
    const prisma = t.db.database.prisma;
    const users = await Promise.all(Array.from({ length: 6 }, () => newUser(t.app)));
    for (const user of users) expect((await put(user, enrolment())).statusCode).toBe(200);
    const [stale, ...rest] = users;
    if (!stale) throw new Error("no users");
    // Five of them reach their expiresAtMin + 5 h; the last stays usable.
    const expired = rest.slice(0, 4).concat(stale);
    await prisma.worldIdPendingEnrolment.updateMany({
      where: { user: { address: { in: expired.map((user) => user.address) } } },
      data: { purgeAfter: new Date(Date.now() - 1_000) },
    });
    expect((await get(stale)).json()).toEqual({ pending: null });
    const before = await prisma.worldIdPendingEnrolment.count();
    expect(await t.app.services.pendingEnrolments.purgeUnusable(2)).toBe(expired.length);
    expect(await prisma.worldIdPendingEnrolment.count()).toBe(before - expired.length);
    const kept = users.at(-1);
    if (!kept) throw new Error("no users");
    expect((await get(kept)).json<{ pending: unknown }>().pending).not.toBeNull();
  });

  it("is rate-limited per wallet like the other signed-in writes", async () => {
    const user = await newUser(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS_LIMIT + 2; i++) statuses.push((await put(user, enrolment())).statusCode);
    const firstRefusal = statuses.indexOf(429);
    expect(firstRefusal).toBeGreaterThan(0);
    expect(firstRefusal).toBeLessThanOrEqual(PER_ADDRESS_LIMIT);
    expect(statuses.slice(0, firstRefusal).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(firstRefusal).every((status) => status === 429)).toBe(true);
    // Another wallet is not held back by this one.
    const other = await newUser(t.app);
    expect((await put(other, enrolment())).statusCode).toBe(200);
  });
});
