import { createServer, get as httpGet, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { FastifyBaseLogger } from "fastify";
import { CLAIM_REMINDER_TEXTS as CLAIM_REMINDER, STREAK_AT_RISK_TEXTS as STREAK_AT_RISK, WORLD_NOTIFICATION_LANGUAGES, worldLanguageOfDevice } from "@oro/clients";
import { claimReminderLocalisations } from "../src/services/notifications/messages.js";
import { createOutboxTransport } from "../src/services/notifications/outbox-transport.js";
import { createReminderService, type RunSummary } from "../src/services/notifications/reminders.js";
import type { NotificationTransport } from "../src/services/notifications/transport.js";
import { createWorldAppTransport } from "../src/services/notifications/world-app-transport.js";
import { createWorldRoute, UNVERIFIED_APP_WINDOW_MS, worldApiKey } from "../src/services/notifications/world-route.js";
import { LOCALES } from "../src/lib/locales.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

const indexer = new FakeIndexer();
let t: TestApp;
let human = 9_000n;
const env = { RATE_LIMIT_PER_ADDRESS: "1000", RATE_LIMIT_PER_IP: "100000" };

beforeAll(async () => {
  t = await createTestApp({ indexer, env });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  indexer.down = false;
});
afterEach(() => {
  vi.useRealTimers();
});

const prisma = () => t.db.database.prisma;

function post(path: string, user: TestUser | undefined, query: Record<string, string>, app = t.app) {
  return app.inject({
    method: "POST",
    url: `/api/notifications/${path}?${new URLSearchParams(query).toString()}`,
    ...(user ? { headers: bearer(user.token) } : {}),
  });
}

/** Runs the workers' step at a moment `ms` from now (only Date is faked: the database keeps its timers). */
async function runAt(ms: number, app = t.app) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
  try {
    return await app.services.reminders.runOnce();
  } finally {
    vi.useRealTimers();
  }
}

describe("POST /api/notifications/set_locale", () => {
  it("stores the user's language; a region or Tagalog maps to ours, anything else to en", async () => {
    const user = await newUser(t.app);
    for (const [sent, stored] of [["es", "es"], ["pt-BR", "pt"], ["tl", "fil"], ["JA", "ja"], ["xx", "en"], ["<script>", "en"]]) {
      const response = await post("set_locale", user, { userAddress: user.address, locale: sent ?? "" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ locale: stored });
      expect((await prisma().notificationPreference.findUniqueOrThrow({ where: { address: user.address } })).locale).toBe(stored);
    }
  });

  it("needs a session for that address (401, 403) and a locale (400)", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    expect((await post("set_locale", undefined, { userAddress: user.address, locale: "es" })).statusCode).toBe(401);
    const forbidden = await post("set_locale", other, { userAddress: user.address, locale: "es" });
    expect(forbidden.statusCode).toBe(403);
    const missing = await post("set_locale", user, { userAddress: user.address });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ issues: [{ field: "querystring.locale" }] });
    const long = await post("set_locale", user, { userAddress: user.address, locale: "x".repeat(36) });
    expect(long.json()).toMatchObject({ issues: [{ field: "querystring.locale", rule: "too_big" }] });
  });
});

describe("POST /api/notifications/oro_claim", () => {
  it("schedules one reminder for the moment the next claim opens, and moves it when asked again", async () => {
    const user = await newUser(t.app);
    const mintedAt = Math.floor(Date.now() / 1000) - 100;
    indexer.mint(user.account.address, ++human, mintedAt);

    const first = await post("oro_claim", user, { userAddress: user.address, locale: "ko" });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ scheduledFor: new Date((mintedAt + indexer.wait) * 1000).toISOString(), locale: "ko", replaced: false });

    indexer.mint(user.account.address, human, mintedAt + indexer.wait + 5);
    const second = await post("oro_claim", user, { userAddress: user.address, locale: "ja" });
    expect(second.json()).toMatchObject({ scheduledFor: new Date((mintedAt + 2 * indexer.wait + 5) * 1000).toISOString(), replaced: true });

    const jobs = await prisma().notificationJob.findMany({ where: { address: user.address }, orderBy: { kind: "asc" } });
    // The claim reminder, and the streak-at-risk nudge 4 h before the streak would lapse (2 × wait after the claim).
    expect(jobs).toEqual([
      expect.objectContaining({ status: "pending", locale: "ja", kind: "oro_claim" }),
      expect.objectContaining({ status: "pending", locale: "ja", kind: "oro_streak_at_risk", dueAt: new Date((mintedAt + 3 * indexer.wait + 5) * 1000 - 4 * 3_600_000) }),
    ]);

    // A language chosen later applies to the pending reminder too.
    await post("set_locale", user, { userAddress: user.address, locale: "es" });
    expect(await prisma().notificationJob.findFirst({ where: { address: user.address } })).toMatchObject({ locale: "es" });
  });

  it("right after a claim the indexer has not seen yet: now + the wait", async () => {
    const user = await newUser(t.app);
    const before = Date.now();
    const response = await post("oro_claim", user, { userAddress: user.address, locale: "en" });
    const scheduledFor = Date.parse(response.json<{ scheduledFor: string }>().scheduledFor);
    expect(scheduledFor).toBeGreaterThanOrEqual(before + indexer.wait * 1000 - 1_000);
    expect(scheduledFor).toBeLessThanOrEqual(Date.now() + indexer.wait * 1000);
  });

  it("100 concurrent requests of one user leave one pending reminder", async () => {
    const user = await newUser(t.app);
    indexer.mint(user.account.address, ++human);
    const responses = await Promise.all(Array.from({ length: 100 }, () => post("oro_claim", user, { userAddress: user.address, locale: "en" })));
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    expect(await prisma().notificationJob.count({ where: { address: user.address, status: "pending", kind: "oro_claim" } })).toBe(1);
    expect(await prisma().notificationJob.count({ where: { address: user.address, status: "pending", kind: "oro_streak_at_risk" } })).toBe(1);
  });

  it("answers 503 REMINDER_UNAVAILABLE while the indexer is down, and needs a session", async () => {
    const user = await newUser(t.app);
    indexer.down = true;
    const response = await post("oro_claim", user, { userAddress: user.address, locale: "en" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "REMINDER_UNAVAILABLE" });
    indexer.down = false;
    expect((await post("oro_claim", undefined, { userAddress: user.address, locale: "en" })).statusCode).toBe(401);
  });
});

describe("sending reminders (development outbox)", () => {
  it("sends nothing before the claim opens, then once, in the user's language, with a deep link", async () => {
    const user = await newUser(t.app);
    indexer.mint(user.account.address, ++human);
    await post("oro_claim", user, { userAddress: user.address, locale: "th" });

    await runAt(indexer.wait * 1000 - 60_000);
    expect(await prisma().notificationOutbox.count({ where: { address: user.address } })).toBe(0);

    await runAt(indexer.wait * 1000 + 1_000);
    const sent = await prisma().notificationOutbox.findMany({ where: { address: user.address } });
    expect(sent).toEqual([
      expect.objectContaining({ language: "th", title: CLAIM_REMINDER.th.title, message: CLAIM_REMINDER.th.message }),
    ]);
    expect(sent[0]?.miniAppPath).toBe(`worldapp://mini-app?app_id=${t.config.notifications.appId}&path=%2F`);
    expect(await prisma().notificationJob.findFirst({ where: { address: user.address, kind: "oro_claim" } })).toMatchObject({ status: "sent", result: "sent" });

    await runAt(indexer.wait * 1000 + 120_000);
    expect(await prisma().notificationOutbox.count({ where: { address: user.address } })).toBe(1);
  });

  it("delivers in the user's World App language (the one chosen in the app until the simulator says), English for one World lacks", async () => {
    const users = await Promise.all(LOCALES.map(() => newUser(t.app)));
    for (const [i, locale] of LOCALES.entries()) {
      const user = users[i];
      if (!user) throw new Error("no user");
      indexer.mint(user.account.address, ++human);
      await post("oro_claim", user, { userAddress: user.address, locale });
    }
    await runAt(indexer.wait * 1000 + 1_000);
    const rows = await prisma().notificationOutbox.findMany({ where: { address: { in: users.map((user) => user.address) } } });
    expect(rows).toHaveLength(LOCALES.length);
    for (const [i, locale] of LOCALES.entries()) {
      const row = rows.find((candidate) => candidate.address === users[i]?.address);
      // World has no Filipino: World delivers such a user the English text, and so does the outbox.
      const shown = worldLanguageOfDevice(locale);
      expect(row, locale).toMatchObject({ language: shown, sent: true, title: CLAIM_REMINDER[shown].title, message: CLAIM_REMINDER[shown].message });
    }
  });

  it("the streak-at-risk nudge: once, hours before the streak would lapse, only to a human who has not claimed, one push a day", async () => {
    const wait = indexer.wait;
    // A three-day wait puts the nudge (lapse − 4 h) on another day than the claim reminder, whatever the clock says.
    indexer.wait = 3 * 86_400;
    try {
      const idle = await newUser(t.app);
      const claimer = await newUser(t.app);
      for (const user of [idle, claimer]) {
        indexer.mint(user.account.address, ++human);
        await post("oro_claim", user, { userAddress: user.address, locale: "es" });
      }
      const lapse = 2 * indexer.wait * 1000;
      const nudges = (address: string) => prisma().notificationOutbox.findMany({ where: { address, title: { in: Object.values(STREAK_AT_RISK).map((text) => text.title) } } });
      await runAt(indexer.wait * 1000 + 1_000); // the claim reminders
      // The claimer claims again on the last day (a claim from another phone: no new schedule here).
      indexer.mint(claimer.account.address, human, Math.floor(Date.now() / 1000) + 2 * indexer.wait - 6 * 3600);
      await runAt(lapse - 4 * 3_600_000 - 60_000);
      expect(await nudges(idle.address)).toHaveLength(0);
      await runAt(lapse - 4 * 3_600_000 + 60_000);
      expect(await nudges(idle.address)).toEqual([expect.objectContaining({ language: "es", title: STREAK_AT_RISK.es.title, message: STREAK_AT_RISK.es.message })]);
      expect(STREAK_AT_RISK.es.message).toContain("${username}");
      // The claimer's nudge moved with the claim: nothing now.
      expect(await nudges(claimer.address)).toHaveLength(0);
      expect(await prisma().notificationJob.findFirst({ where: { address: claimer.address, kind: "oro_streak_at_risk", status: "pending" } })).not.toBeNull();
      // Once only.
      await runAt(lapse - 3_600_000);
      expect(await nudges(idle.address)).toHaveLength(1);
    } finally {
      indexer.wait = wait;
    }
  });

  it("no nudge when a reminder already reached the address that day, nor once the streak has lapsed", async () => {
    const today = await newUser(t.app);
    const lapsed = await newUser(t.app);
    indexer.mint(today.account.address, ++human);
    indexer.mint(lapsed.account.address, ++human);
    await post("oro_claim", today, { userAddress: today.address, locale: "en" });
    await post("oro_claim", lapsed, { userAddress: lapsed.address, locale: "en" });
    const nudgeAt = 2 * indexer.wait * 1000 - 4 * 3_600_000 + 60_000;
    // A reminder sent to `today` earlier the same (UTC) day as the nudge.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + nudgeAt });
    const sentAt = new Date(new Date().setUTCHours(0, 0, 1, 0));
    vi.useRealTimers();
    await prisma().notificationJob.create({ data: { kind: "oro_claim", address: today.address, locale: "en", dueAt: sentAt, status: "sent", sentAt } });
    await prisma().notificationJob.updateMany({ where: { address: { in: [today.address, lapsed.address] }, kind: "oro_claim", status: "pending" }, data: { status: "cancelled" } });
    // `lapsed` is checked when the streak has already lapsed.
    await prisma().notificationJob.updateMany({ where: { address: lapsed.address, kind: "oro_streak_at_risk" }, data: { dueAt: new Date(Date.now() + 2 * indexer.wait * 1000 + 60_000) } });
    await runAt(nudgeAt);
    expect(await prisma().notificationJob.findFirst({ where: { address: today.address, kind: "oro_streak_at_risk" } })).toMatchObject({ status: "not_delivered" });
    await runAt(2 * indexer.wait * 1000 + 120_000);
    expect(await prisma().notificationJob.findFirst({ where: { address: lapsed.address, kind: "oro_streak_at_risk" } })).toMatchObject({ status: "cancelled" });
    expect(await prisma().notificationOutbox.count({ where: { address: { in: [today.address, lapsed.address] } } })).toBe(0);
  });

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

interface PortalRequest {
  authorization: string | undefined;
  body: { app_id: string; wallet_addresses: string[]; localisations: { language: string; title: string; message: string }[]; mini_app_path: string };
}

describe("the World App transport, against a stand-in for the developer portal", () => {
  let portal: Server;
  let app: TestApp;
  const requests: PortalRequest[] = [];
  /** Addresses whose owner has not enabled notifications for the app. */
  const disabled = new Set<string>();
  let failWith: number | undefined;
  let failCode = "failure";
  /** The portal takes the request and never answers (World then retries its own send: it may arrive). */
  let hang = false;
  /** The portal answers this late (World answers only once its own retries are over: up to minutes). */
  let answerAfterMs = 0;
  /** Requests whose headers reached the portal, bodies or not. */
  let headersSeen = 0;
  /** Requests for these addresses are answered only once `heldAnswer` resolves (World still retrying its own send). */
  const holdAnswerFor = new Set<string>();
  let heldAnswer: Promise<void> = Promise.resolve();
  const appId = "app_0123456789abcdef";
  const portalKey = worldApiKey("key_test", "secret");
  /** World's route as the stand-ins play it (world-route.ts): its checks, its answers, a result per address. */
  const route = createWorldRoute({
    app: { appId, apiKey: portalKey, keyActive: true, verified: true, perUserPerDay: null, listing: "ok" },
    deviceOf: (address) => ({ language: "en", notifications: !disabled.has(address) }),
  });
  let portalEnv: Record<string, string>;

  const readBody = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString()));
      request.on("end", () => resolve(text));
    });

  beforeAll(async () => {
    // The portal's request and answer shapes: POST /api/v2/minikit/send-notification with a bearer API key,
    // at most 1,000 wallet_addresses, answering { success, status, result: [{ walletAddress, sent, reason? }] }.
    portal = createServer((request, response) => {
      headersSeen += 1;
      void readBody(request).then((text) => {
        const reply = (status: number, body: unknown) => {
          response.writeHead(status, { "content-type": "application/json" });
          response.end(JSON.stringify(body));
        };
        if (request.method !== "POST" || request.url !== "/api/v2/minikit/send-notification") return reply(404, { code: "not_found" });
        const body = JSON.parse(text) as PortalRequest["body"];
        requests.push({ authorization: request.headers.authorization, body });
        const answer = () => {
          if (failWith) return reply(failWith, { code: failCode });
          const world = route.answer(request.headers.authorization, text);
          return reply(world.status, world.body);
        };
        if (hang) return;
        if (body.wallet_addresses.some((address) => holdAnswerFor.has(address))) return void heldAnswer.then(answer);
        if (answerAfterMs > 0) setTimeout(answer, answerAfterMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => portal.listen(0, "127.0.0.1", resolve));
    portalEnv = {
      ...env,
      NOTIFICATIONS_TRANSPORT: "world-app",
      WORLD_APP_ID: appId,
      WORLD_APP_API_KEY: portalKey,
      WORLD_APP_API_URL: `http://127.0.0.1:${(portal.address() as AddressInfo).port}`,
      NOTIFICATION_MINI_APP_PATH: "/?from=reminder",
    };
    app = await createTestApp({ indexer, env: portalEnv });
  });
  afterAll(async () => {
    await app.close();
    portal.closeAllConnections();
    await new Promise((resolve) => portal.close(resolve));
  });
  beforeEach(() => {
    requests.length = 0;
    failWith = undefined;
  });

  const db = () => app.db.database.prisma;

  async function dueJobs(count: number) {
    const addresses = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase());
    await db().notificationJob.createMany({
      data: addresses.map((address, i) => ({ id: randomUUID(), kind: "oro_claim", address, locale: LOCALES[i % LOCALES.length] ?? "en", dueAt: new Date(Date.now() - 1_000) })),
    });
    return addresses;
  }

  it("sends at most 1,000 addresses per request, every language, the deep link, and records each address's result", async () => {
    const addresses = await dueJobs(1_005);
    disabled.add(addresses[3] ?? "");
    disabled.add(addresses[1_004] ?? "");

    const summary = await app.app.services.reminders.runOnce();
    expect(summary).toMatchObject({ sent: 1_003, notDelivered: 2 });
    expect(requests.map((request) => request.body.wallet_addresses.length).sort((a, b) => a - b)).toEqual([5, 1_000]);
    for (const { body } of requests) {
      expect(body.app_id).toBe(appId);
      expect(body.mini_app_path).toBe(`worldapp://mini-app?app_id=${appId}&path=%2F%3Ffrom%3Dreminder`);
      // Every language World delivers in: a user whose World App is set to one the request lacks receives nothing.
      expect(body.localisations.map((entry) => entry.language).sort()).toEqual([...WORLD_NOTIFICATION_LANGUAGES].sort());
      expect(body.localisations.find((entry) => entry.language === "es")).toEqual({ language: "es", ...CLAIM_REMINDER.es });
    }
    const notDelivered = await db().notificationJob.findMany({ where: { address: { in: addresses }, status: "not_delivered" } });
    expect(notDelivered.map((job) => job.address).sort()).toEqual([addresses[3], addresses[1_004]].sort());
    expect(notDelivered[0]?.result).toMatch(/notification disabled/);
    expect(await db().notificationJob.count({ where: { address: { in: addresses }, status: "sent", sentAt: { not: null } } })).toBe(1_003);
    expect(await db().notificationOutbox.count()).toBe(0);
  });

  it("a 5xx after the body left: its reminders end unknown, with World's answer, counted, and are never sent again", async () => {
    // World answers 500 when its upstream throttled or never answered, after retrying it for minutes with a key of its
    // own: the upstream may have delivered, and a second request would be a second notification.
    failWith = 500;
    failCode = "internal_server_error";
    try {
      const [address = ""] = await dueJobs(1);
      const unknownBefore = value(await app.app.metrics.metrics(), 'oro_api_reminders_settled_total{outcome="unknown"}') ?? 0;
      expect(await app.app.services.reminders.runOnce()).toMatchObject({ unknown: 1, retried: 0, sent: 0 });
      const job = await db().notificationJob.findFirstOrThrow({ where: { address } });
      expect(job).toMatchObject({ status: "unknown", lockedUntil: null });
      expect(job.result).toMatch(/answered 500.*may have sent it/);
      expect(value(await app.app.metrics.metrics(), 'oro_api_reminders{state="unknown"}')).toBeGreaterThanOrEqual(1);
      // The counter the alert RemindersUnknown takes the increase of, whatever the rows' count says.
      expect(value(await app.app.metrics.metrics(), 'oro_api_reminders_settled_total{outcome="unknown"}')).toBe(unknownBefore + 1);
      failWith = undefined;
      await runAt(3 * 3_600_000, app.app);
      expect(requests.filter((request) => request.body.wallet_addresses.includes(address))).toHaveLength(1);
    } finally {
      failCode = "failure";
    }
  });

  it.each([
    ["api_key_inactive", { keyActive: false }],
    ["not_allowed", { perUserPerDay: 0 }],
    ["app_not_found", { listing: "app_not_found" as const }],
  ])("World's refusal %s stops sending: one clear error line, the alert's gauge, the reminders kept; once put right, they go", async (code, setting) => {
    const errors: string[] = [];
    const log = quietLogger(errors);
    const transport = createWorldAppTransport({ apiUrl: portalEnv.WORLD_APP_API_URL ?? "", appId, apiKey: portalKey, timeoutMs: app.config.notifications.timeoutMs });
    const reminders = createReminderService({ prisma: db(), indexer, transport, appId, miniAppPath: "/", leaseMs: 60_000, maxAttempts: 5, concurrency: 4, refusalPauseMs: 3_600_000, log });
    route.settings(setting);
    const addresses = await dueJobs(3);
    try {
      const ours = () => requests.filter((request) => request.body.wallet_addresses.some((address) => addresses.includes(address))).length;
      expect(await reminders.runOnce()).toMatchObject({ deferred: 3, failed: 0, sent: 0 });
      expect(reminders.sendingState().stopped).toMatchObject({ code });
      // Nothing more is sent while stopped: not a request a pass, as retrying for ever did.
      expect(await reminders.runOnce()).toMatchObject({ sent: 0, deferred: 0 });
      expect(ours()).toBe(1);
      const jobs = await db().notificationJob.findMany({ where: { address: { in: addresses } } });
      expect(jobs.map((job) => [job.status, job.attempts])).toEqual([["pending", 0], ["pending", 0], ["pending", 0]]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(`World refuses reminders (${code})`);
      // Put right in the developer portal: the hour's pause over, one reminder tries, and then the rest go.
      route.settings({ keyActive: true, perUserPerDay: null, listing: "ok" });
      expect(await runService(reminders, 3_600_000 + 60_000)).toMatchObject({ sent: 3 });
      expect(reminders.sendingState().stopped).toBeNull();
      expect(errors).toHaveLength(1);
    } finally {
      route.settings({ keyActive: true, perUserPerDay: null, listing: "ok" });
      await db().notificationJob.updateMany({ where: { address: { in: addresses }, status: "pending" }, data: { status: "cancelled" } });
    }
  });

  it("the alert's gauge: oro_api_reminders_stopped names World's refusal while the replica has stopped", async () => {
    const replica = await createTestApp({ indexer, env: { ...portalEnv, NOTIFICATION_REFUSAL_PAUSE: "1h" }, testDatabase: app.db });
    route.settings({ keyActive: false });
    try {
      await dueJobs(1);
      expect(value(await replica.app.metrics.metrics(), 'oro_api_reminders_stopped{code="api_key_inactive"}')).toBeUndefined();
      await replica.app.services.reminders.runOnce();
      expect(value(await replica.app.metrics.metrics(), 'oro_api_reminders_stopped{code="api_key_inactive"}')).toBe(1);
    } finally {
      route.settings({ keyActive: true });
      await replica.close();
      await db().notificationJob.updateMany({ where: { status: "pending" }, data: { status: "cancelled" } });
    }
  });

  it("keeps within World's quota for an unverified app: learned from its refusal, or configured; the rest spread over the window", async () => {
    // The earlier tests' requests went out while World held the app verified: its unverified window counts none of them;
    // and what they left leased or due (a worker they stopped) is no request of this one's to count.
    await db().notificationJob.updateMany({ where: { requestedAt: { not: null } }, data: { requestedAt: new Date(Date.now() - UNVERIFIED_APP_WINDOW_MS - 60_000) } });
    await db().notificationJob.updateMany({ where: { status: { in: ["pending", "sending"] } }, data: { status: "cancelled", lockedUntil: null } });
    route.settings({ verified: false });
    const transport = createWorldAppTransport({ apiUrl: portalEnv.WORLD_APP_API_URL ?? "", appId, apiKey: portalKey, timeoutMs: app.config.notifications.timeoutMs });
    const service = (worldVerified: boolean | "auto") =>
      createReminderService({ prisma: db(), indexer, transport, appId, miniAppPath: "/", leaseMs: 60_000, maxAttempts: 5, concurrency: 4, worldVerified, log: quietLogger([]) });
    try {
      const addresses = await dueJobs(100);
      const sent = () => db().notificationJob.count({ where: { address: { in: addresses }, status: "sent" } });
      // Not told: its first batch of 100 is refused whole (nothing sent, the attempt given back); from then on it keeps
      // within 40 per 4 hours, and the rest wait.
      const learning = service("auto");
      expect(await learning.runOnce()).toMatchObject({ deferred: 100, sent: 0, failed: 0 });
      expect(learning.sendingState().keepsQuota).toBe(true);
      expect(await runService(learning, 16 * 60_000)).toMatchObject({ sent: 40, deferred: 0 });
      expect(await runService(learning, 17 * 60_000)).toMatchObject({ sent: 0 });
      expect(await sent()).toBe(40);
      // Leased once and given back: the refusal cost them no attempt.
      expect(await db().notificationJob.count({ where: { address: { in: addresses }, status: "pending", attempts: 0 } })).toBe(60);
      // A window later, 40 more, from two replicas told the app is not verified, leasing at once: never past 40.
      const [a, b] = [service(false), service(false)];
      const both = await runServices([a, b], 4 * 3_600_000 + 20 * 60_000);
      expect(both.reduce((sum, pass) => sum + pass.sent, 0)).toBe(40);
      expect(both.reduce((sum, pass) => sum + pass.deferred, 0)).toBe(0);
      expect(await sent()).toBe(80);
      expect(requests.map((request) => request.body.wallet_addresses.length)).toEqual([100, 40, 40]);
    } finally {
      route.settings({ verified: true });
      await db().notificationJob.updateMany({ where: { status: "pending" }, data: { status: "cancelled" } });
    }
  });

  it("writes a request's body only once the caller has recorded it, on an open connection; a body that never left is retried", async () => {
    const transport = createWorldAppTransport({ apiUrl: `http://127.0.0.1:${(portal.address() as AddressInfo).port}`, appId, apiKey: portalKey, timeoutMs: 10_000 });
    const recipients = [{ jobId: randomUUID(), address: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc", locale: "en" as const }];
    const notification = { localisations: claimReminderLocalisations(), miniAppPath: `worldapp://mini-app?app_id=${appId}&path=%2F` };
    // While the caller records the request, the portal holds its headers and not its body: a worker that dies then
    // has sent World nothing it acts on, and its jobs are not recorded as requested.
    const [headersBefore, bodiesBefore] = [headersSeen, requests.length];
    let atRecord: [number, number] | undefined;
    await transport.send(recipients, notification, async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      atRecord = [headersSeen - headersBefore, requests.length - bodiesBefore];
    });
    expect(atRecord).toEqual([1, 0]);
    expect(requests.length - bodiesBefore).toBe(1);
    // The record fails (the database is down, say): the body never leaves, the portal acts on nothing, and the
    // failure is one to retry.
    const failure = await transport.send(recipients, notification, () => Promise.reject(new Error("the database is down"))).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ failure: "not-sent" });
    expect(String(failure)).not.toMatch(/may have reached World/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(requests.length - bodiesBefore).toBe(1);
  });

  it("holds the lease of reminders while World is still answering: another replica neither abandons nor takes them", async () => {
    // Two replicas whose leases last 2 s; World answers only when the test lets it, as when it retries its own send.
    // Renewed every third of the lease, the lease outlasts any stall of a loaded machine up to 1.3 s (one of 300 ms,
    // renewed every 100 ms, did not: a pass of the other replica found it run out under two busy loops).
    const lease = { ...portalEnv, NOTIFICATION_LEASE: "2s" };
    const [sender, other] = await Promise.all([
      createTestApp({ indexer, env: lease, testDatabase: app.db }),
      createTestApp({ indexer, env: lease, testDatabase: app.db }),
    ]);
    let answer = () => undefined as void;
    heldAnswer = new Promise<void>((resolve) => (answer = resolve));
    let sending: Promise<RunSummary> | undefined;
    try {
      const addresses = await dueJobs(3);
      for (const address of addresses) holdAnswerFor.add(address);
      sending = sender.app.services.reminders.runOnce();
      while (requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const jobs = () => db().notificationJob.findMany({ where: { address: { in: addresses } } });
      const leasedUntil = Math.max(...(await jobs()).map((job) => job.lockedUntil?.getTime() ?? 0));
      // Past the lease the sender took, twice: each pass of the other replica finds them still held.
      const meanwhile: RunSummary[] = [];
      for (const end of [leasedUntil, leasedUntil + 2_000]) {
        while (Date.now() <= end) await new Promise((resolve) => setTimeout(resolve, 20));
        meanwhile.push(await other.app.services.reminders.runOnce());
      }
      answer();
      const summary = await sending;
      expect(meanwhile.map(({ abandoned, released, sent }) => ({ abandoned, released, sent }))).toEqual([
        { abandoned: 0, released: 0, sent: 0 },
        { abandoned: 0, released: 0, sent: 0 },
      ]);
      expect(summary.sent).toBe(3);
      expect(requests).toHaveLength(1);
      expect((await jobs()).map((job) => job.status)).toEqual(["sent", "sent", "sent"]);
    } finally {
      answer();
      holdAnswerFor.clear();
      await sending?.catch(() => undefined);
      await Promise.all([sender.close(), other.close()]);
    }
  });

  it("the lanes of a replica lease one after another, so that its requests carry whole batches", async () => {
    // Eight lanes leasing at once raced through the same due rows on PostgreSQL, each skipping what another had just
    // locked, and split them: 1,005 due left in requests of 1, 4 and 1,000 on a loaded CI machine. Whether two
    // statements interleave so depends on the machine; whether they run at once does not: counted here.
    let leasing = 0;
    let mostAtOnce = 0;
    const real = db();
    const counted = new Proxy(real, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (key !== "$queryRaw" || typeof value !== "function") return typeof value === "function" ? (value.bind(target) as unknown) : value;
        return async (strings: TemplateStringsArray, ...values: unknown[]) => {
          const isLease = strings.join("?").includes(`SET "status" = 'sending'`);
          if (isLease) mostAtOnce = Math.max(mostAtOnce, ++leasing);
          try {
            return await real.$queryRaw(strings, ...values);
          } finally {
            if (isLease) leasing -= 1;
          }
        };
      },
    });
    // World's transport with batches of 10 (World takes 1,000: the same rule, at a size a loaded machine sends quickly).
    const world = createWorldAppTransport({ apiUrl: portalEnv.WORLD_APP_API_URL ?? "", appId, apiKey: portalKey, timeoutMs: app.config.notifications.timeoutMs });
    const transport: NotificationTransport = { ...world, maxRecipients: 10 };
    const reminders = createReminderService({ prisma: counted, indexer, transport, appId, miniAppPath: "/", leaseMs: 60_000, maxAttempts: 5, concurrency: 8, log: app.app.log });
    await dueJobs(15);
    expect(await reminders.runOnce()).toEqual({ sent: 15, notDelivered: 0, retried: 0, failed: 0, unknown: 0, deferred: 0, abandoned: 0, released: 0 });
    expect(mostAtOnce).toBe(1);
    expect(requests.map((request) => request.body.wallet_addresses.length).sort((a, b) => a - b)).toEqual([5, 10]);
  });

  it("a worker slowed past its lease sends nothing another worker took meanwhile: the body never leaves", async () => {
    const real = createWorldAppTransport({ apiUrl: portalEnv.WORLD_APP_API_URL ?? "", appId, apiKey: portalKey, timeoutMs: app.config.notifications.timeoutMs });
    let resume = () => undefined as void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    let reached = false;
    // The slow worker: its request is built, then the machine stalls it (its lease renewals stall with it).
    const stalled: NotificationTransport = {
      ...real,
      async send(...args) {
        reached = true;
        await resumed;
        return real.send(...args);
      },
    };
    const slow = createReminderService({ prisma: db(), indexer, transport: stalled, appId, miniAppPath: "/", leaseMs: 60_000, maxAttempts: 5, log: app.app.log });
    const [address = ""] = await dueJobs(1);
    const slowPass = slow.runOnce();
    while (!reached) await new Promise((resolve) => setImmediate(resolve));
    // Its lease has run out (renewals missed while stalled): another replica releases the reminder and sends it.
    await db().notificationJob.updateMany({ where: { address }, data: { lockedUntil: new Date(Date.now() - 1_000) } });
    expect(await app.app.services.reminders.runOnce()).toMatchObject({ released: 1, sent: 1 });
    resume();
    expect(await slowPass).toMatchObject({ sent: 0 });
    expect(requests.filter((request) => request.body.wallet_addresses.includes(address))).toHaveLength(1);
    expect(await db().notificationJob.findFirstOrThrow({ where: { address } })).toMatchObject({ status: "sent" });
  });

  it("holds the lease of a lane's second request while its first is out: the nudge waits for the claim reminders' answer", async () => {
    // One lane leases a claim reminder and a streak nudge, sends the claim reminder (World answers it late), then the
    // nudge. Its lease was renewed only for the request out: another replica released the nudge and sent it, and then
    // the first sent it again.
    const lease = { ...portalEnv, NOTIFICATION_LEASE: "2s" };
    const [sender, other] = await Promise.all([
      createTestApp({ indexer, env: lease, testDatabase: app.db }),
      createTestApp({ indexer, env: lease, testDatabase: app.db }),
    ]);
    let answer = () => undefined as void;
    heldAnswer = new Promise<void>((resolve) => (answer = resolve));
    let sending: Promise<unknown> = Promise.resolve();
    try {
      const [claimAddress = ""] = await dueJobs(1);
      const nudged = privateKeyToAccount(generatePrivateKey()).address;
      // Its streak lapses in an hour: the nudge is due.
      indexer.mint(nudged, ++human, Math.floor(Date.now() / 1000) - 2 * indexer.wait + 3_600);
      const nudgeAddress = nudged.toLowerCase();
      await db().notificationJob.create({ data: { kind: "oro_streak_at_risk", address: nudgeAddress, locale: "en", dueAt: new Date(Date.now() - 1_000) } });
      holdAnswerFor.add(claimAddress);
      sending = sender.app.services.reminders.runOnce();
      while (!requests.some((request) => request.body.wallet_addresses.includes(claimAddress))) await new Promise((resolve) => setTimeout(resolve, 20));
      const leasedUntil = (await db().notificationJob.findFirstOrThrow({ where: { address: nudgeAddress } })).lockedUntil?.getTime() ?? 0;
      // Past the lease the sender took: the other replica's pass neither releases nor sends the nudge.
      while (Date.now() <= leasedUntil) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await other.app.services.reminders.runOnce()).toMatchObject({ released: 0, abandoned: 0, sent: 0 });
      answer();
      await sending;
      const jobs = await db().notificationJob.findMany({ where: { address: { in: [claimAddress, nudgeAddress] } }, orderBy: { kind: "asc" } });
      expect(jobs.map((job) => [job.kind, job.status])).toEqual([["oro_claim", "sent"], ["oro_streak_at_risk", "sent"]]);
      expect(requests.filter((request) => request.body.wallet_addresses.includes(nudgeAddress))).toHaveLength(1);
    } finally {
      answer();
      holdAnswerFor.clear();
      await sending.catch(() => undefined);
      await Promise.all([sender.close(), other.close()]);
    }
  });

  it("a replica shutting down stops serving at once but waits for the request World is still answering: its reminders are sent", async () => {
    const replica = await createTestApp({ indexer, env: { ...portalEnv, WORKERS_ENABLED: "true", NOTIFICATION_INTERVAL: "50ms" }, testDatabase: app.db });
    await replica.app.listen({ host: "127.0.0.1", port: 0 });
    const port = (replica.app.server.address() as AddressInfo).port;
    /** The HTTP status of GET /api/health on a fresh connection, or the connection's error code. */
    const health = () =>
      new Promise<number | string>((resolve) => {
        const request = httpGet({ host: "127.0.0.1", port, path: "/api/health", agent: false }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      });
    answerAfterMs = 3_000;
    let closed = false;
    try {
      const addresses = await dueJobs(3);
      // Its requests for these reminders (the replica's workers also send any other reminder of this suite then due).
      const ours = () => requests.filter((request) => request.body.wallet_addresses.some((address) => addresses.includes(address)));
      expect(await health()).toBe(200);
      while (ours().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const closing = replica.close().then(() => (closed = true));
      // While World is still answering, the replica no longer takes connections (not a 503 from a process still up).
      let seen = await health();
      while (seen === 200) seen = await health();
      expect(closed).toBe(false);
      expect(["ECONNREFUSED", "ECONNRESET"]).toContain(seen);
      await closing;
      expect(ours()).toHaveLength(1);
      const jobs = await db().notificationJob.findMany({ where: { address: { in: addresses } } });
      expect(jobs.map((job) => job.status)).toEqual(["sent", "sent", "sent"]);
    } finally {
      answerAfterMs = 0;
    }
  });

  it("never sends again a request that may have reached World (a timeout): at most once", async () => {
    hang = true;
    try {
      const transport = createWorldAppTransport({ apiUrl: `http://127.0.0.1:${(portal.address() as AddressInfo).port}`, appId, apiKey: portalKey, timeoutMs: 300 });
      const recipients = [{ jobId: randomUUID(), address: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc", locale: "en" as const }];
      const notification = { localisations: claimReminderLocalisations(), miniAppPath: `worldapp://mini-app?app_id=${appId}&path=%2F` };
      const failure = await transport.send(recipients, notification).then(() => undefined, (error: unknown) => error);
      expect(failure).toMatchObject({ failure: "unknown" });
      expect(String(failure)).toMatch(/may have reached World \(not sent again\)/);
    } finally {
      hang = false;
    }
  });
});

/** A metric's value in Prometheus' text format, or undefined when the series is absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A logger that keeps its error lines (the one an operator reads) and drops the rest. */
function quietLogger(errors: string[]): FastifyBaseLogger {
  const logger = {
    level: "info",
    fatal: () => undefined,
    error: (_object: unknown, message?: string) => void errors.push(message ?? ""),
    warn: () => undefined,
    info: () => undefined,
    debug: () => undefined,
    trace: () => undefined,
    silent: () => undefined,
    child: () => logger,
  };
  return logger;
}

/** Runs the passes of reminder services at once at a moment `ms` from now (only Date is faked, for them all). */
async function runServices(services: { runOnce: () => Promise<RunSummary> }[], ms: number): Promise<RunSummary[]> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
  try {
    return await Promise.all(services.map((service) => service.runOnce()));
  } finally {
    vi.useRealTimers();
  }
}

async function runService(service: { runOnce: () => Promise<RunSummary> }, ms: number): Promise<RunSummary> {
  const [summary] = await runServices([service], ms);
  if (!summary) throw new Error("no pass");
  return summary;
}
