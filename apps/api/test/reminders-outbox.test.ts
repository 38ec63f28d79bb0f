import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { CLAIM_REMINDER_TEXTS as CLAIM_REMINDER, STREAK_AT_RISK_TEXTS as STREAK_AT_RISK } from "@oro/clients";
import { claimReminderLocalisations } from "../src/services/notifications/messages.js";
import { createOutboxTransport } from "../src/services/notifications/outbox-transport.js";
import { createReminderService } from "../src/services/notifications/reminders.js";
import type { NotificationTransport } from "../src/services/notifications/transport.js";
import { createTestApp, testAppForFile } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser } from "./helpers/referrals.js";
import { REMINDER_TEST_ENV, reminderCalls } from "./helpers/reminders.js";

// The development outbox keeps World's rules (its per-day setting, its refusals, the devices the simulator told it),
// and the reminder workers send each reminder at most once, across restarts and replicas.
const indexer = new FakeIndexer();
const env = REMINDER_TEST_ENV;
const t = testAppForFile({ indexer, env });
let human = 9_000n;

const prisma = () => t.db.database.prisma;
const { post, runAt } = reminderCalls(() => t.app);

describe("the development outbox keeps World's rules", () => {
  it("honours World's per-day setting (NOTIFICATIONS_PER_USER_PER_DAY) for every kind: 0, 1, 2 or unlimited a user a day", async () => {
    const dayStart = new Date(new Date().setUTCHours(0, 0, 0, 0));
    const earlierToday = new Date(dayStart.getTime() + 1_000);
    const yesterday = new Date(dayStart.getTime() - 3_600_000);
    const fresh = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    /** An address that already got `today` reminders today (and one yesterday, which never counts), and a reminder due now. */
    async function due(kind: string, today: number) {
      const address = fresh();
      for (const sentAt of [yesterday, ...Array.from({ length: today }, () => earlierToday)]) {
        await prisma().notificationJob.create({ data: { kind: "oro_claim", address, locale: "en", dueAt: sentAt, status: "sent", sentAt } });
      }
      await prisma().notificationJob.create({ data: { kind, address, locale: "en", dueAt: new Date(Date.now() - 1_000) } });
      return address;
    }
    const outbox = (address: string) => prisma().notificationOutbox.count({ where: { address } });

    for (const [setting, today, delivered] of [["0", 0, false], ["1", 0, true], ["1", 1, false], ["2", 1, true], ["2", 2, false], ["unlimited", 5, true]] as const) {
      const app = await createTestApp({ indexer, env: { ...env, NOTIFICATIONS_PER_USER_PER_DAY: setting }, testDatabase: t.db });
      try {
        const address = await due("oro_claim", today);
        await app.app.services.reminders.runOnce();
        expect(await outbox(address), `${setting} a day, ${today} sent today`).toBe(delivered ? 1 : 0);
        if (!delivered) {
          expect((await prisma().notificationJob.findFirst({ where: { address, status: "not_delivered" } }))?.result, setting).toMatch(/per-day setting/);
        }
      } finally {
        await app.close();
      }
    }

    // A nudge and a claim reminder due together for one address, with 1 a day: the nudge alone goes.
    const both = await newUser(t.app);
    indexer.mint(both.account.address, ++human, Math.floor(Date.now() / 1000) - 2 * indexer.wait + 3_600);
    const address = both.address.toLowerCase();
    for (const kind of ["oro_claim", "oro_streak_at_risk"]) {
      await prisma().notificationJob.create({ data: { kind, address, locale: "ko", dueAt: new Date(Date.now() - 1_000) } });
    }
    await t.app.services.reminders.runOnce();
    expect(await prisma().notificationOutbox.findMany({ where: { address } })).toEqual([expect.objectContaining({ title: STREAK_AT_RISK.ko.title })]);
    expect(await prisma().notificationJob.findFirst({ where: { address, kind: "oro_claim" } })).toMatchObject({ status: "not_delivered" });

    // Another worker sending to the address now counts too: never past the setting.
    const inFlight = fresh();
    await prisma().notificationJob.create({ data: { kind: "oro_streak_at_risk", address: inFlight, locale: "en", dueAt: new Date(), status: "sending", lockedUntil: new Date(Date.now() + 60_000), lockedBy: "another worker" } });
    await prisma().notificationJob.create({ data: { kind: "oro_claim", address: inFlight, locale: "en", dueAt: new Date(Date.now() - 1_000) } });
    await t.app.services.reminders.runOnce();
    expect(await outbox(inFlight)).toBe(0);
  });

  it("the development outbox refuses what World's API refuses (a language World lacks, as every request carried before)", async () => {
    const world = t.app.services.developmentWorld;
    if (!world) throw new Error("no development World");
    const outbox = createOutboxTransport(prisma(), t.app.log, t.config.notifications.appId, world);
    const recipients = [{ jobId: randomUUID(), address: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc", locale: "fil" as const }];
    const before = { localisations: [{ language: "en", ...CLAIM_REMINDER.en }, { language: "fil", title: "Handa na ang ORO mo", message: "Puwede mo nang i-claim ang iyong ORO." }], miniAppPath: `worldapp://mini-app?app_id=${t.config.notifications.appId}&path=%2F` };
    // @ts-expect-error the payload the API sent before: "fil" is no language World accepts (nor the type allows)
    const refused = await outbox.send(recipients, before).then(() => undefined, (error: unknown) => error);
    expect(refused).toMatchObject({ failure: "defect" });
    expect(String(refused)).toMatch(/"fil" is not one World accepts/);
    const tooLong = { ...before, localisations: [{ language: "en" as const, title: "x".repeat(31), message: "ok" }] };
    await expect(outbox.send(recipients, tooLong)).rejects.toThrow(/at most 30 characters/);
    expect(await prisma().notificationOutbox.count({ where: { address: recipients[0]?.address } })).toBe(0);
  });

  it("the development outbox of every replica answers with the devices the simulator told any of them", async () => {
    // The simulator reaches one replica through the load balancer; the reminder may be sent by another.
    const other = await createTestApp({ indexer, env, testDatabase: t.db });
    try {
      const otherWorld = other.app.services.developmentWorld;
      if (!otherWorld) throw new Error("no development World");
      const french = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
      const told = await t.app.inject({ method: "POST", url: "/api/dev/world-app", payload: { users: [{ address: french, language: "fr", notifications: true }] } });
      expect(told.statusCode).toBe(204);
      const outbox = createOutboxTransport(prisma(), other.app.log, other.config.notifications.appId, otherWorld);
      const link = `worldapp://mini-app?app_id=${other.config.notifications.appId}&path=%2F`;
      expect(await outbox.send([{ jobId: randomUUID(), address: french, locale: "en" }], { localisations: claimReminderLocalisations(), miniAppPath: link })).toEqual([{ address: french, sent: true }]);
      expect(await prisma().notificationOutbox.findMany({ where: { address: french } })).toEqual([expect.objectContaining({ language: "fr", sent: true })]);
    } finally {
      await other.close();
    }
  });

  it("the development outbox answers as World's route does: the World App's language, World's reason, its refusals", async () => {
    const world = t.app.services.developmentWorld;
    if (!world) throw new Error("no development World");
    const fresh = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const [french, latin, silent] = [fresh(), fresh(), fresh()];
    // What the simulator tells: each World App's language and whether its user allowed the app's notifications.
    const told = await t.app.inject({
      method: "POST",
      url: "/api/dev/world-app",
      payload: { users: [{ address: french, language: "fr", notifications: true }, { address: latin, language: "es_419", notifications: true }, { address: silent, language: "de", notifications: false }] },
    });
    expect(told.statusCode).toBe(204);
    const outbox = createOutboxTransport(prisma(), t.app.log, t.config.notifications.appId, world);
    const recipients = [french, latin, silent].map((address) => ({ jobId: randomUUID(), address, locale: "en" as const }));
    const link = `worldapp://mini-app?app_id=${t.config.notifications.appId}&path=%2F`;
    const results = await outbox.send(recipients, { localisations: claimReminderLocalisations(), miniAppPath: link });
    expect(results).toEqual([
      { address: french, sent: true },
      { address: latin, sent: true },
      { address: silent, sent: false, reason: "User has notification disabled for World App" },
    ]);
    const rows = async (address: string) => prisma().notificationOutbox.findMany({ where: { address }, orderBy: { createdAt: "asc" } });
    expect(await rows(french)).toEqual([expect.objectContaining({ language: "fr", sent: true, title: CLAIM_REMINDER.fr.title, message: CLAIM_REMINDER.fr.message })]);
    expect(await rows(silent)).toEqual([expect.objectContaining({ language: "de", sent: false, reason: "User has notification disabled for World App" })]);
    // The seven languages the API sent before: a user in Latin American Spanish got nothing, and World said why.
    const seven = claimReminderLocalisations().filter((entry) => ["en", "es", "id", "ja", "ko", "pt", "th"].includes(entry.language));
    const [before] = await outbox.send(recipients.slice(1, 2), { localisations: seven, miniAppPath: link });
    expect(before).toEqual({ address: latin, sent: false, reason: "No localisation for the user's World App language: es_419" });
    expect((await rows(latin)).map((row) => [row.sent, row.reason])).toEqual([[true, null], [false, "No localisation for the user's World App language: es_419"]]);
    // World's refusals reach the sender as World's: a key made inactive in the developer portal, the unverified quota.
    try {
      world.route.settings({ keyActive: false });
      await expect(outbox.send(recipients.slice(0, 1), { localisations: claimReminderLocalisations(), miniAppPath: link })).rejects.toMatchObject({ failure: "refused", code: "api_key_inactive" });
      world.route.settings({ keyActive: true, verified: false });
      const many = Array.from({ length: 41 }, () => ({ jobId: randomUUID(), address: fresh(), locale: "en" as const }));
      await expect(outbox.send(many, { localisations: claimReminderLocalisations(), miniAppPath: link })).rejects.toMatchObject({ failure: "quota" });
    } finally {
      world.route.settings({ keyActive: true, verified: true });
    }
  });
});

describe("reminder workers: restarts, replicas, shutdown and at most once", () => {
  it("survives a restart: a reminder scheduled by one process is sent by the next", async () => {
    const before = await createTestApp({ indexer, env, testDatabase: t.db });
    const user = await newUser(before.app);
    indexer.mint(user.account.address, ++human);
    await post("oro_claim", user, { userAddress: user.address, locale: "id" }, before.app);
    await before.close();

    const after = await createTestApp({ indexer, env, testDatabase: t.db });
    try {
      const summary = await runAt(indexer.wait * 1000 + 1_000, after.app);
      expect(summary.sent).toBeGreaterThanOrEqual(1);
      expect(await prisma().notificationOutbox.findMany({ where: { address: user.address } })).toEqual([
        expect.objectContaining({ language: "id", title: CLAIM_REMINDER.id.title }),
      ]);
    } finally {
      await after.close();
    }
  });

  it("two workers running at once deliver each reminder exactly once", async () => {
    const other = await createTestApp({ indexer, env, testDatabase: t.db });
    try {
      const dueAt = new Date(Date.now() - 1_000);
      const addresses = Array.from({ length: 60 }, () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase());
      await prisma().notificationJob.createMany({
        data: addresses.map((address) => ({ id: randomUUID(), kind: "oro_claim", address, locale: "es", dueAt })),
      });
      const [a, b] = await Promise.all([t.app.services.reminders.runOnce(), other.app.services.reminders.runOnce()]);
      expect((a?.sent ?? 0) + (b?.sent ?? 0)).toBe(60);
      const rows = await prisma().notificationOutbox.findMany({ where: { address: { in: addresses } } });
      expect(rows).toHaveLength(60);
      expect(new Set(rows.map((row) => row.jobId)).size).toBe(60);
      expect(await prisma().notificationJob.count({ where: { address: { in: addresses }, status: "sent" } })).toBe(60);
    } finally {
      await other.close();
    }
  });

  it("never resends a reminder whose worker stopped while sending (at most once)", async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    // Its request to World had started ("requested"): it may have arrived.
    const job = await prisma().notificationJob.create({
      data: { kind: "oro_claim", address, locale: "en", dueAt: new Date(Date.now() - 60_000), status: "sending", lockedUntil: new Date(Date.now() - 1_000), attempts: 1, result: "requested" },
    });
    const summary = await t.app.services.reminders.runOnce();
    expect(summary.abandoned).toBeGreaterThanOrEqual(1);
    expect(await prisma().notificationJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "abandoned" });
    expect(await prisma().notificationOutbox.count({ where: { address } })).toBe(0);
  });

  it("purges finished reminders older than the retention, keeps the recent and the pending", async () => {
    const address = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const old = new Date(Date.now() - 8 * 86_400_000);
    const [oldSent, oldFailed, recentSent, oldPending] = await Promise.all([
      prisma().notificationJob.create({ data: { kind: "oro_claim", address: address(), locale: "en", dueAt: old, status: "sent", sentAt: old } }),
      prisma().notificationJob.create({ data: { kind: "oro_claim", address: address(), locale: "en", dueAt: old, status: "failed" } }),
      prisma().notificationJob.create({ data: { kind: "oro_claim", address: address(), locale: "en", dueAt: new Date(), status: "sent", sentAt: new Date() } }),
      prisma().notificationJob.create({ data: { kind: "oro_claim", address: address(), locale: "en", dueAt: new Date(Date.now() + 86_400_000), status: "pending" } }),
    ]);
    // updated_at is set by Prisma on write: age the old ones as the database would see them after 8 days.
    await prisma().$executeRaw`UPDATE "notification_job" SET "updated_at" = ${old} WHERE "id" IN (${oldSent.id}, ${oldFailed.id}, ${oldPending.id})`;
    expect(await t.app.services.reminders.purgeFinished()).toBeGreaterThanOrEqual(2);
    const left = await prisma().notificationJob.findMany({ where: { id: { in: [oldSent.id, oldFailed.id, recentSent.id, oldPending.id] } } });
    expect(left.map((job) => job.id).sort()).toEqual([recentSent.id, oldPending.id].sort());
  });

  it("a pass told to stop (the process is shutting down) leases nothing more, and its request out is answered", async () => {
    const stopping = new AbortController();
    const world = t.app.services.developmentWorld;
    if (!world) throw new Error("no development World");
    const outbox = createOutboxTransport(prisma(), t.app.log, "app_staging_oro_local", world);
    // The outbox as it is, but the process is told to stop while the pass's first request is out.
    const transport: NotificationTransport = {
      ...outbox,
      send: (...args) => {
        stopping.abort();
        return outbox.send(...args);
      },
    };
    const reminders = createReminderService({ prisma: prisma(), indexer, transport, appId: "app_staging_oro_local", miniAppPath: "/", leaseMs: 60_000, maxAttempts: 5, concurrency: 1, log: t.app.log });
    const addresses = Array.from({ length: 2_500 }, () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase());
    await prisma().notificationJob.createMany({
      data: addresses.map((address) => ({ id: randomUUID(), kind: "oro_claim", address, locale: "en", dueAt: new Date(Date.now() - 1_000) })),
    });
    const summary = await reminders.runOnce(60_000, stopping.signal);
    expect(summary.sent).toBe(1_000);
    const byStatus = await prisma().notificationJob.groupBy({ by: ["status"], where: { address: { in: addresses } }, _count: { _all: true } });
    expect(Object.fromEntries(byStatus.map((row) => [row.status, row._count._all]))).toEqual({ sent: 1_000, pending: 1_500 });
  });

  it("sends a reminder whose worker stopped after leasing it but before its request started: nothing was lost", async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const job = await prisma().notificationJob.create({
      data: { kind: "oro_claim", address, locale: "en", dueAt: new Date(Date.now() - 60_000), status: "sending", lockedUntil: new Date(Date.now() - 1_000), attempts: 1 },
    });
    const summary = await t.app.services.reminders.runOnce();
    expect(summary).toMatchObject({ released: 1, abandoned: 0 });
    expect(await prisma().notificationJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "sent" });
    expect(await prisma().notificationOutbox.count({ where: { address } })).toBe(1);
  });
});
