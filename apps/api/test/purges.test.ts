import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../src/generated/prisma/client.js";
import { batchDeleteStatement, PURGE_BATCH } from "../src/lib/delete-in-batches.js";
import { createDatabaseStore } from "../src/services/streaks/streak-cache.js";
import { createTestApp, type TestApp } from "./helpers/app.js";

// The hourly purges delete `batch` rows a statement until one deletes fewer: here with batches of 3, so that a purge
// takes several statements (the last one short) and must still drop every expired row and nothing else.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const prisma = () => t.db.database.prisma;
const address = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
const DAY_MS = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);

describe("purges, a batch a statement", () => {
  it("drops every nonce and session expired over a day ago, and keeps the rest", async () => {
    const nonce = (expiresAt: Date) => ({ nonce: randomUUID(), purpose: "sign_in" as const, expiresAt });
    const expiredNonces = Array.from({ length: 7 }, (_, i) => nonce(ago(2 * DAY_MS + i)));
    const keptNonces = [nonce(ago(DAY_MS - 60_000)), nonce(ago(60_000)), nonce(new Date(Date.now() + 60_000))];
    await prisma().authNonce.createMany({ data: [...expiredNonces, ...keptNonces] });
    const user = await prisma().user.create({ data: { address: address() } });
    const session = (expiresAt: Date) => ({ tokenHash: randomUUID(), userId: user.id, expiresAt });
    const expiredSessions = Array.from({ length: 8 }, (_, i) => session(ago(3 * DAY_MS + i)));
    const keptSessions = [session(ago(DAY_MS - 60_000)), session(new Date(Date.now() + DAY_MS))];
    await prisma().session.createMany({ data: [...expiredSessions, ...keptSessions] });

    expect(await t.app.services.auth.purgeExpired(3)).toBe(expiredNonces.length + expiredSessions.length);
    expect((await prisma().authNonce.findMany()).map((row) => row.nonce).sort()).toEqual(keptNonces.map((row) => row.nonce).sort());
    expect((await prisma().session.findMany()).map((row) => row.tokenHash).sort()).toEqual(keptSessions.map((row) => row.tokenHash).sort());
  });

  it("drops every streak answer fetched before the cut-off, and keeps the newer", async () => {
    const answer = (fetchedAt: Date) => ({ address: address(), kind: "current", body: { streak: 1 }, fetchedAt, freshUntil: fetchedAt });
    const old = Array.from({ length: 10 }, (_, i) => answer(ago(2 * DAY_MS + i)));
    const newer = [answer(ago(DAY_MS - 60_000)), answer(new Date())];
    await prisma().streakCacheEntry.createMany({ data: [...old, ...newer] });

    expect(await createDatabaseStore(t.db.database).purge(Date.now() - DAY_MS, 3)).toBe(old.length);
    expect((await prisma().streakCacheEntry.findMany()).map((row) => row.address).sort()).toEqual(newer.map((row) => row.address).sort());
  });

  it("drops every finished reminder older than the retention, and keeps the recent and the pending", async () => {
    const job = (status: "sent" | "failed" | "cancelled" | "pending") => ({ id: randomUUID(), kind: "oro_claim", address: address(), locale: "en", dueAt: ago(8 * DAY_MS), status });
    const old = [...Array.from({ length: 5 }, () => job("sent")), job("failed"), job("cancelled")];
    const [oldPending, recentSent] = [job("pending"), job("sent")];
    await prisma().notificationJob.createMany({ data: [...old, oldPending, recentSent] });
    // updated_at is set on write: age all but the recent one as the database would see them after 8 days.
    await prisma().$executeRaw`UPDATE "notification_job" SET "updated_at" = ${ago(8 * DAY_MS)} WHERE "id" <> ${recentSent.id}`;

    expect(await t.app.services.reminders.purgeFinished(3)).toBe(old.length);
    expect((await prisma().notificationJob.findMany()).map((row) => row.id).sort()).toEqual([oldPending.id, recentSent.id].sort());
  });

  it("picks each batch through the table's index and deletes it by row address, never reading the whole table (PostgreSQL's plan)", async () => {
    if (t.db.kind !== "postgres") return;
    const purges = [
      { table: "auth_nonce", where: Prisma.sql`"expires_at" < ${new Date()}`, index: "auth_nonce_expires_at_idx" },
      { table: "session", where: Prisma.sql`"expires_at" < ${new Date()}`, index: "session_expires_at_idx" },
      { table: "streak_cache", where: Prisma.sql`"fetched_at" < ${new Date()}`, index: "streak_cache_fetched_at_idx" },
      { table: "world_id_pending_enrolment", where: Prisma.sql`"purge_after" <= ${new Date()}`, index: "world_id_pending_enrolment_purge_after_idx" },
    ];
    for (const { table, where, index } of purges) {
      // Seq scans off: these tables are nearly empty here, where reading them whole would be cheapest.
      const [, plan] = await prisma().$transaction([
        prisma().$executeRawUnsafe("SET LOCAL enable_seqscan = off"),
        prisma().$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${batchDeleteStatement(table, where, PURGE_BATCH)}`),
      ]);
      const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
      expect(text, table).toMatch(new RegExp(`Index Scan on ${index}|Index Scan using ${index}`));
      expect(text, table).toMatch(/Tid Scan on/);
      expect(text, table).not.toMatch(/Seq Scan/);
    }
  });
});
