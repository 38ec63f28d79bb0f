import { randomUUID } from "node:crypto";
import { get as httpGet } from "node:http";
import type { AddressInfo } from "node:net";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { claimReminderLocalisations } from "../src/services/notifications/messages.js";
import { createReminderService, type RunSummary } from "../src/services/notifications/reminders.js";
import type { NotificationTransport } from "../src/services/notifications/transport.js";
import { createWorldAppTransport } from "../src/services/notifications/world-app-transport.js";
import { createTestApp, testAppForFile } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { dueJobs, REMINDER_TEST_ENV } from "./helpers/reminders.js";
import { portalEnv, portalForFile } from "./helpers/world-portal.js";

// The reminders' leases while World answers, through World App's transport and a stand-in for the developer portal
// (helpers/world-portal.ts): at most once, whichever replica sends, stops or stalls.
const indexer = new FakeIndexer();
const portal = portalForFile();
const env = () => portalEnv(portal, REMINDER_TEST_ENV);
const app = testAppForFile(() => ({ indexer, env: env() }));
let human = 9_000n;

const db = () => app.db.database.prisma;

/**
 * Waits until `seen()` holds while the sender's pass runs; fails at once, saying what the pass returned or threw, if
 * it ends first (else the test would only time out, with nothing said about why no request came).
 */
async function untilSeenWhile(pass: Promise<unknown>, seen: () => boolean, what: string) {
  let ended: string | undefined;
  pass.then(
    (summary) => (ended = `returned ${JSON.stringify(summary)}`),
    (error: unknown) => (ended = `threw ${String(error)}`),
  );
  while (!seen()) {
    if (ended !== undefined) throw new Error(`the sender's pass ended before ${what}: it ${ended}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the World App transport: leases held while World answers", () => {
  it("holds the lease of reminders while World is still answering: another replica neither abandons nor takes them", async () => {
    // Two replicas whose leases last 2 s; World answers only when the test lets it, as when it retries its own send.
    // Renewed every third of the lease, the lease outlasts any stall of a loaded machine up to 1.3 s (one of 300 ms,
    // renewed every 100 ms, did not: a pass of the other replica found it run out under two busy loops).
    const lease = { ...env(), NOTIFICATION_LEASE: "2s" };
    const [sender, other] = await Promise.all([
      createTestApp({ indexer, env: lease, testDatabase: app.db }),
      createTestApp({ indexer, env: lease, testDatabase: app.db }),
    ]);
    let answer = () => undefined as void;
    portal.heldAnswer = new Promise<void>((resolve) => (answer = resolve));
    let sending: Promise<RunSummary> | undefined;
    try {
      const addresses = await dueJobs(db(), 3);
      for (const address of addresses) portal.holdAnswerFor.add(address);
      sending = sender.app.services.reminders.runOnce();
      await untilSeenWhile(sending, () => portal.requests.length > 0, "World received its request");
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
      expect(portal.requests).toHaveLength(1);
      expect((await jobs()).map((job) => job.status)).toEqual(["sent", "sent", "sent"]);
    } finally {
      answer();
      portal.holdAnswerFor.clear();
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
    const world = createWorldAppTransport({ apiUrl: portal.url, appId: portal.appId, apiKey: portal.apiKey, timeoutMs: app.config.notifications.timeoutMs });
    const transport: NotificationTransport = { ...world, maxRecipients: 10 };
    const reminders = createReminderService({ prisma: counted, indexer, transport, appId: portal.appId, miniAppPath: "/", leaseMs: 60_000, maxAttempts: 5, concurrency: 8, log: app.app.log });
    await dueJobs(db(), 15);
    expect(await reminders.runOnce()).toEqual({ sent: 15, notDelivered: 0, retried: 0, failed: 0, unknown: 0, deferred: 0, abandoned: 0, released: 0 });
    expect(mostAtOnce).toBe(1);
    expect(portal.requests.map((request) => request.body.wallet_addresses.length).sort((a, b) => a - b)).toEqual([5, 10]);
  });

  it("a worker slowed past its lease sends nothing another worker took meanwhile: the body never leaves", async () => {
    const real = createWorldAppTransport({ apiUrl: portal.url, appId: portal.appId, apiKey: portal.apiKey, timeoutMs: app.config.notifications.timeoutMs });
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
    const slow = createReminderService({ prisma: db(), indexer, transport: stalled, appId: portal.appId, miniAppPath: "/", leaseMs: 60_000, maxAttempts: 5, log: app.app.log });
    const [address = ""] = await dueJobs(db(), 1);
    const slowPass = slow.runOnce();
    while (!reached) await new Promise((resolve) => setImmediate(resolve));
    // Its lease has run out (renewals missed while stalled): another replica releases the reminder and sends it.
    await db().notificationJob.updateMany({ where: { address }, data: { lockedUntil: new Date(Date.now() - 1_000) } });
    expect(await app.app.services.reminders.runOnce()).toMatchObject({ released: 1, sent: 1 });
    resume();
    expect(await slowPass).toMatchObject({ sent: 0 });
    expect(portal.requests.filter((request) => request.body.wallet_addresses.includes(address))).toHaveLength(1);
    expect(await db().notificationJob.findFirstOrThrow({ where: { address } })).toMatchObject({ status: "sent" });
  });

  it("holds the lease of a lane's second request while its first is out: the nudge waits for the claim reminders' answer", async () => {
    // One lane leases a claim reminder and a streak nudge, sends the claim reminder (World answers it late), then the
    // nudge. Its lease was renewed only for the request out: another replica released the nudge and sent it, and then
    // the first sent it again.
    const lease = { ...env(), NOTIFICATION_LEASE: "2s" };
    const [sender, other] = await Promise.all([
      createTestApp({ indexer, env: lease, testDatabase: app.db }),
      createTestApp({ indexer, env: lease, testDatabase: app.db }),
    ]);
    let answer = () => undefined as void;
    portal.heldAnswer = new Promise<void>((resolve) => (answer = resolve));
    let sending: Promise<unknown> = Promise.resolve();
    try {
      const [claimAddress = ""] = await dueJobs(db(), 1);
      const nudged = privateKeyToAccount(generatePrivateKey()).address;
      // Its streak lapses in an hour: the nudge is due.
      indexer.mint(nudged, ++human, Math.floor(Date.now() / 1000) - 2 * indexer.wait + 3_600);
      const nudgeAddress = nudged.toLowerCase();
      await db().notificationJob.create({ data: { kind: "oro_streak_at_risk", address: nudgeAddress, locale: "en", dueAt: new Date(Date.now() - 1_000) } });
      portal.holdAnswerFor.add(claimAddress);
      sending = sender.app.services.reminders.runOnce();
      await untilSeenWhile(sending, () => portal.requests.some((request) => request.body.wallet_addresses.includes(claimAddress)), "World received the claim reminder");
      const leasedUntil = (await db().notificationJob.findFirstOrThrow({ where: { address: nudgeAddress } })).lockedUntil?.getTime() ?? 0;
      // Past the lease the sender took: the other replica's pass neither releases nor sends the nudge.
      while (Date.now() <= leasedUntil) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await other.app.services.reminders.runOnce()).toMatchObject({ released: 0, abandoned: 0, sent: 0 });
      answer();
      await sending;
      const jobs = await db().notificationJob.findMany({ where: { address: { in: [claimAddress, nudgeAddress] } }, orderBy: { kind: "asc" } });
      expect(jobs.map((job) => [job.kind, job.status])).toEqual([["oro_claim", "sent"], ["oro_streak_at_risk", "sent"]]);
      expect(portal.requests.filter((request) => request.body.wallet_addresses.includes(nudgeAddress))).toHaveLength(1);
    } finally {
      answer();
      portal.holdAnswerFor.clear();
      await sending.catch(() => undefined);
      await Promise.all([sender.close(), other.close()]);
    }
  });
});

describe("the World App transport: at most once when a replica stops or World does not answer", () => {
  it("a replica shutting down stops serving at once but waits for the request World is still answering: its reminders are sent", async () => {
    const replica = await createTestApp({ indexer, env: { ...env(), WORKERS_ENABLED: "true", NOTIFICATION_INTERVAL: "50ms" }, testDatabase: app.db });
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
    portal.answerAfterMs = 3_000;
    let closed = false;
    try {
      const addresses = await dueJobs(db(), 3);
      // Its requests for these reminders (the replica's workers also send any other reminder of this suite then due).
      const ours = () => portal.requests.filter((request) => request.body.wallet_addresses.some((address) => addresses.includes(address)));
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
      portal.answerAfterMs = 0;
    }
  });

  it("never sends again a request that may have reached World (a timeout): at most once", async () => {
    portal.hang = true;
    try {
      const transport = createWorldAppTransport({ apiUrl: portal.url, appId: portal.appId, apiKey: portal.apiKey, timeoutMs: 300 });
      const recipients = [{ jobId: randomUUID(), address: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc", locale: "en" as const }];
      const notification = { localisations: claimReminderLocalisations(), miniAppPath: `worldapp://mini-app?app_id=${portal.appId}&path=%2F` };
      const failure = await transport.send(recipients, notification).then(() => undefined, (error: unknown) => error);
      expect(failure).toMatchObject({ failure: "unknown" });
      expect(String(failure)).toMatch(/may have reached World \(not sent again\)/);
    } finally {
      portal.hang = false;
    }
  });
});
