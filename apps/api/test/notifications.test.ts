import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLAIM_REMINDER_TEXTS as CLAIM_REMINDER, STREAK_AT_RISK_TEXTS as STREAK_AT_RISK, worldLanguageOfDevice } from "@oro/clients";
import { LOCALES } from "../src/lib/locales.js";
import { testAppForFile } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser } from "./helpers/referrals.js";
import { REMINDER_TEST_ENV, reminderCalls } from "./helpers/reminders.js";

// The reminders a user asks for, and when and in which language they are sent (development outbox). World's rules in
// the outbox and the workers: reminders-outbox.test.ts; World App's transport: reminders-world-app.test.ts,
// reminder-leases.test.ts.
const indexer = new FakeIndexer();
const t = testAppForFile({ indexer, env: REMINDER_TEST_ENV });
let human = 9_000n;

beforeEach(() => {
  indexer.down = false;
});
afterEach(() => {
  vi.useRealTimers();
});

const prisma = () => t.db.database.prisma;
const { post, runAt } = reminderCalls(() => t.app);

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

describe("sending reminders: when, and in which language (development outbox)", () => {
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
});
