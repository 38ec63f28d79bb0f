import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Address } from "viem";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import { wallClock, type ChainClock } from "../chain/index.js";
import { deleteInBatches, PURGE_BATCH } from "../../lib/delete-in-batches.js";
import { ApiError } from "../../lib/errors.js";
import { IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import { toLocale, type Locale } from "../../lib/locales.js";
import { claimReminderLocalisations, streakAtRiskLocalisations, type Localisation } from "./messages.js";
import { miniAppLink, TransportError, type NotificationTransport, type Recipient } from "./transport.js";
import { UNVERIFIED_APP_LIMIT, UNVERIFIED_APP_WINDOW_MS } from "./world-route.js";

export const CLAIM_REMINDER_KIND = "oro_claim";
/** The nudge before a streak lapses: scheduled with the claim reminder, sent only if the human has not claimed. */
export const STREAK_AT_RISK_KIND = "oro_streak_at_risk";

export interface ReminderServiceOptions {
  prisma: PrismaClient;
  indexer: IndexerClient;
  transport: NotificationTransport;
  appId: string;
  miniAppPath: string;
  /**
   * How long a worker holds the jobs it leased before another may take them (those it had not started sending) or
   * abandon them (those it had). Renewed while their request is out, however long World takes to answer.
   */
  leaseMs: number;
  maxAttempts: number;
  /**
   * How many requests a worker has out at once (default 1), each lane leasing its next batch when its last is
   * answered: World answers a request its upstream throttled only once its own retries are over (minutes), and the
   * other lanes go on meanwhile.
   */
  concurrency?: number;
  /** How long a finished job is kept (default 7 days): World's per-day budget reads one day back. */
  retentionMs?: number;
  /** How long before a streak would lapse the nudge comes (default 4 h). */
  streakAtRiskWindowMs?: number;
  /**
   * The app's per-day setting in World's developer portal: at most this many reminders (of every kind together)
   * reach one address in one UTC day; null is unlimited. Default 1, World's starting budget.
   */
  perUserPerDay?: number | null;
  /**
   * Whether World holds the app verified: unverified, it refuses a whole request when its 4-hour window would pass 40
   * notifications, so the sender keeps within that; `auto` (the default) sends as verified until World refuses so,
   * then keeps within it for a window.
   */
  worldVerified?: boolean | "auto";
  /** How long sending stops after World refused a request (a disabled key, notifications off): then one is tried. */
  refusalPauseMs?: number;
  log: FastifyBaseLogger;
  /** When jobs are due: the wall clock, or the chain's when it runs ahead (a local chain moved forward). */
  clock?: ChainClock;
}

export interface ScheduledReminder {
  scheduledFor: Date;
  /** A pending reminder existed and now has the new time. */
  replaced: boolean;
}

export interface RunSummary {
  sent: number;
  notDelivered: number;
  retried: number;
  failed: number;
  /** Their request's body left and World answered a 5xx or nothing: World may have delivered them; never sent again. */
  unknown: number;
  /** Refused by World before it sent anything (its quota, or a refusal that stops sending): due again, attempts kept. */
  deferred: number;
  /** Left by a worker that stopped after its request started: never sent again. */
  abandoned: number;
  /** Left by a worker that stopped before its request started: due again. */
  released: number;
}

const BASE_RETRY_MS = 30_000;
const DEFAULT_REFUSAL_PAUSE_MS = 15 * 60_000;
/** What an operator does about each of World's refusals (developer-portal send-notification). */
const REFUSAL_ADVICE: Record<string, string> = {
  not_allowed: "the app's notifications per user per day are set to 0",
  api_key_inactive: "the API key is inactive: activate it or set a new one",
  not_found: "World does not know the API key",
  invalid_api_key: "the API key's secret is wrong",
  invalid_app: "the API key belongs to another app",
  unauthorized: "no API key was sent",
  app_not_found: "World does not know WORLD_APP_ID",
  duplicate_app: "World lists the app twice and neither is verified",
  external_app_not_allowed: "notifications are not available for external apps",
  validation_error: "World refuses the request's content: a defect of ours",
};
/** Serialises the replicas' leases while World's quota for unverified apps is kept (an advisory lock's key). */
const QUOTA_LOCK_KEY = 0x4f524f5155; // "OROQU"
/** A leased job's `result` once its request to World has started (cleared by every lease). */
const REQUESTED = "requested";

interface LeasedJob {
  id: string;
  kind: string;
  address: string;
  locale: string;
  attempts: number;
}

export type ReminderService = ReturnType<typeof createReminderService>;

/**
 * Claim reminders: stored as jobs in `notification_job`, so they survive restarts, and sent by whichever API
 * process leases them first.
 *
 * - One pending reminder per address (a partial unique index): scheduling again moves it.
 * - Leasing is one statement that flips due `pending` rows to `sending` (`FOR UPDATE SKIP LOCKED` on
 *   PostgreSQL; PGlite has a single connection, so the statement alone is atomic there): two workers never
 *   get the same job.
 * - At most once: a job whose worker died while it was `sending` may or may not have reached the wallet, so
 *   it is marked `abandoned`, never sent again. A send that failed as a whole without reaching the portal, or
 *   with a 429/5xx, goes back to `pending` with a backoff, up to `maxAttempts`.
 * - Times are the API's clock (passed in the statements), not the database's; due times follow the chain's clock
 *   when it runs ahead of the machine's (see chain-clock.ts).
 */
export function createReminderService(options: ReminderServiceOptions) {
  const { prisma, indexer, transport, log } = options;
  const clock = options.clock ?? wallClock;
  const workerId = randomUUID();
  const link = miniAppLink(options.appId, options.miniAppPath);
  const riskWindowMs = options.streakAtRiskWindowMs ?? 4 * 3_600_000;
  const perUserPerDay = options.perUserPerDay === undefined ? 1 : options.perUserPerDay;
  const refusalPauseMs = options.refusalPauseMs ?? DEFAULT_REFUSAL_PAUSE_MS;
  /**
   * World refused a request as a whole (a key disabled, notifications off, the app unknown): nothing more is sent until
   * `retryAt`, then one reminder tries whether World takes them again.
   */
  let stopped: { code: string; since: Date; retryAt: number; probing: boolean } | null = null;
  /** Until when World's quota for unverified apps is kept: always when configured so, else a window after its refusal. */
  let unverifiedUntil = options.worldVerified === false ? Number.POSITIVE_INFINITY : 0;
  const keepsQuota = () => Date.now() < unverifiedUntil;

  async function setLocale(address: Address, locale: Locale): Promise<void> {
    const lower = address.toLowerCase();
    await prisma.notificationPreference.upsert({ where: { address: lower }, create: { address: lower, locale }, update: { locale } });
    await prisma.notificationJob.updateMany({ where: { address: lower, status: "pending" }, data: { locale } });
  }

  /**
   * When the address's next claim opens and when its streak would lapse (the streak rule: the next claim within
   * 2 × wait of the last): the indexer's times, or from now while the last mint is not indexed yet.
   */
  async function nextClaimAt(address: Address): Promise<{ claimAt: Date; lapseAt: Date }> {
    try {
      const streak = await indexer.streak(address);
      const now = clock.now().getTime();
      if (streak.nextMintAt !== null && streak.nextMintAt * 1000 > now) {
        const lapseAt = streak.streakExpiresAt ?? streak.nextMintAt;
        return { claimAt: new Date(streak.nextMintAt * 1000), lapseAt: new Date(lapseAt * 1000) };
      }
      // The reminder is asked for right after a claim, which the indexer may not have seen yet.
      const wait = (await indexer.waitBetweenMints()) * 1000;
      return { claimAt: new Date(now + wait), lapseAt: new Date(now + 2 * wait) };
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      log.warn({ err: error }, "cannot schedule a reminder: indexer unavailable");
      throw new ApiError(503, "REMINDER_UNAVAILABLE", "cannot tell when your next claim opens right now: try again shortly");
    }
  }

  async function scheduleClaimReminder(address: Address, locale: Locale): Promise<ScheduledReminder> {
    const lower = address.toLowerCase();
    const { claimAt, lapseAt } = await nextClaimAt(address);
    await prisma.notificationPreference.upsert({ where: { address: lower }, create: { address: lower, locale }, update: { locale } });
    const row = await upsertJob(CLAIM_REMINDER_KIND, lower, locale, claimAt);
    // The nudge goes with it, moved by every claim; it is checked again against the chain when it comes due.
    await upsertJob(STREAK_AT_RISK_KIND, lower, locale, new Date(Math.max(claimAt.getTime(), lapseAt.getTime() - riskWindowMs)));
    return { scheduledFor: row.due_at, replaced: !row.inserted };
  }

  /** One pending job per (address, kind): scheduling again moves it. */
  async function upsertJob(kind: string, address: string, locale: Locale, dueAt: Date) {
    const now = new Date();
    const [row] = await prisma.$queryRaw<{ due_at: Date; inserted: boolean }[]>`
      INSERT INTO "notification_job" ("id", "kind", "address", "locale", "due_at", "status", "created_at", "updated_at")
      VALUES (${randomUUID()}, ${kind}, ${address}, ${locale}, ${dueAt}, 'pending', ${now}, ${now})
      ON CONFLICT ("address", "kind") WHERE "status" = 'pending'
      DO UPDATE SET "due_at" = EXCLUDED."due_at", "locale" = EXCLUDED."locale", "updated_at" = EXCLUDED."updated_at"
      RETURNING "due_at", (xmax = 0) AS inserted`;
    if (!row) throw new Error("scheduling a reminder returned no row");
    return row;
  }

  /**
   * Jobs left `sending` by a worker that stopped. Those whose request had started may have reached World: at most
   * once means they are not sent again. Those it had only leased never left this API: they are due again.
   */
  async function abandonExpiredLeases(now: Date): Promise<{ abandoned: number; released: number }> {
    const { count: released } = await prisma.notificationJob.updateMany({
      where: { status: "sending", lockedUntil: { lt: now }, OR: [{ result: null }, { result: { not: REQUESTED } }] },
      data: { status: "pending", lockedUntil: null, lockedBy: null },
    });
    const { count } = await prisma.notificationJob.updateMany({
      where: { status: "sending", lockedUntil: { lt: now } },
      data: { status: "abandoned", lockedUntil: null, lastError: "the worker stopped while sending; not retried (at most once)" },
    });
    if (count > 0) log.warn({ count }, "reminders abandoned: their worker stopped while sending");
    if (released > 0) log.warn({ count: released }, "reminders due again: their worker stopped before sending them");
    return { abandoned: count, released };
  }

  /**
   * Keeps the lease of these jobs from the moment they are leased until each is settled: while the streak nudges are
   * checked against the indexer, while the lane's first request is out and its second waits for it, and while World
   * answers (only once its own retries are over: up to minutes). A lease that ran out meanwhile would let another
   * worker abandon them or, not yet requested, send them again. A worker that stops renews no more. Returns the stop.
   */
  function holdLease(ids: string[]): () => void {
    const renew = () => {
      const until = new Date(clock.now().getTime() + options.leaseMs);
      prisma.notificationJob
        .updateMany({ where: held(ids), data: { lockedUntil: until } })
        .catch((error: unknown) => log.warn({ err: error, jobs: ids.length }, "could not renew the lease of reminders being sent"));
    };
    const timer = setInterval(renew, Math.max(options.leaseMs / 3, 10));
    timer.unref();
    return () => clearInterval(timer);
  }

  /** These jobs while this worker still holds them (another may have taken them once a lease ran out). */
  function held(ids: string[]): Prisma.NotificationJobWhereInput {
    return { id: { in: ids }, status: "sending", lockedBy: workerId };
  }

  /**
   * The lanes of this worker lease one after another. Leased at once, their statements raced through the same due
   * rows, each skipping the rows another had just locked (SKIP LOCKED), and split what was due between them: 1,005
   * due left in three requests of 1, 4 and 1,000 on a loaded machine, where two carry them (CI's failure of the
   * transport's batch test), and under World's unverified quota each lane would take the window's whole allowance.
   */
  let leasing: Promise<unknown> = Promise.resolve();
  const totals: RunSummary = { sent: 0, notDelivered: 0, retried: 0, failed: 0, unknown: 0, deferred: 0, abandoned: 0, released: 0 };

  function leaseInTurn(limit: number): Promise<LeasedJob[]> {
    const leased = leasing.then(() => (keepsQuota() ? leaseWithinQuota(limit) : lease(prisma, clock.now(), limit)));
    leasing = leased.catch(() => undefined);
    return leased;
  }

  /**
   * World's quota for unverified apps: a request that would take its 4-hour window past 40 notifications is refused
   * whole. Its window starts at its first notification; kept here as any 4 hours, it holds whenever World's starts.
   * Counted are the reminders requested in the last 4 hours (World's clock: this machine's) and those leased and
   * about to be; the replicas lease one at a time under an advisory lock, so together they stay within it.
   */
  async function quotaUsed(db: Prisma.TransactionClient | PrismaClient, excluding: string[] = []): Promise<{ used: number; oldest: Date | null }> {
    const since = new Date(Date.now() - UNVERIFIED_APP_WINDOW_MS);
    const others = excluding.length > 0 ? Prisma.sql`AND "id" NOT IN (${Prisma.join(excluding)})` : Prisma.empty;
    const [row] = await db.$queryRaw<{ used: number; oldest: Date | null }[]>`
      SELECT count(*)::int AS "used", min("requested_at") AS "oldest" FROM "notification_job"
       WHERE ("requested_at" > ${since} OR ("status" = 'sending' AND "requested_at" IS NULL)) ${others}`;
    return { used: row?.used ?? 0, oldest: row?.oldest ?? null };
  }

  function leaseWithinQuota(limit: number): Promise<LeasedJob[]> {
    return prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 AS "locked" FROM pg_advisory_xact_lock(${QUOTA_LOCK_KEY})`;
      const allowance = Math.min(limit, UNVERIFIED_APP_LIMIT - (await quotaUsed(tx)).used);
      return allowance > 0 ? lease(tx, clock.now(), allowance) : [];
    });
  }

  async function lease(db: Prisma.TransactionClient | PrismaClient, now: Date, limit: number): Promise<LeasedJob[]> {
    const until = new Date(now.getTime() + options.leaseMs);
    // The batch is picked once (a materialised CTE): as `IN (subquery)` the planner may rescan the subquery inside a
    // semi-join, and each rescan skips the rows this statement already locked and takes the next ones, past the limit.
    return db.$queryRaw<LeasedJob[]>`
      WITH "picked" AS MATERIALIZED (
        SELECT "id" FROM "notification_job"
         WHERE "status" = 'pending' AND "due_at" <= ${now}
         ORDER BY "due_at"
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED)
      UPDATE "notification_job" AS "job"
         SET "status" = 'sending', "locked_until" = ${until}, "locked_by" = ${workerId},
             "attempts" = "job"."attempts" + 1, "result" = NULL, "updated_at" = ${now}
        FROM "picked"
       WHERE "job"."id" = "picked"."id" AND "job"."status" = 'pending'
      RETURNING "job"."id", "job"."kind", "job"."address", "job"."locale", "job"."attempts"`;
  }

  /**
   * Puts a batch World did not take back in one transaction: every job leaves `sending` together, so a worker killed
   * meanwhile leaves none of them marked as requested (which would abandon reminders World never received). `dueAgain`
   * gives each its new time, or null when it fails; one with a newer pending reminder for its address is cancelled
   * (superseded). `counted` false gives the attempt back: World refused before sending, through no fault of the
   * reminder's. Returns how many failed and how many are due again (or superseded).
   */
  async function putBack(jobs: LeasedJob[], reason: string, dueAgain: (job: LeasedJob) => Date | null, counted: boolean): Promise<{ failed: number; again: number }> {
    const lastError = reason.slice(0, 500);
    const again = jobs.flatMap((job) => {
      const dueAt = dueAgain(job);
      return dueAt === null ? [] : [{ job, dueAt }];
    });
    const exhausted = jobs.filter((job) => !again.some((entry) => entry.job === job)).map((job) => job.id);
    const now = new Date();
    const statements: Prisma.PrismaPromise<{ count: number } | number>[] = [
      prisma.notificationJob.updateMany({ where: held(exhausted), data: { status: "failed", lockedUntil: null, lastError } }),
    ];
    if (again.length > 0) {
      statements.push(prisma.$executeRaw`
        UPDATE "notification_job" AS "job" SET "status" = 'cancelled', "locked_until" = NULL, "last_error" = ${lastError}, "updated_at" = ${now}
         WHERE "job"."id" IN (${Prisma.join(again.map(({ job }) => job.id))}) AND "job"."status" = 'sending' AND "job"."locked_by" = ${workerId} AND EXISTS (SELECT 1 FROM "notification_job" AS "newer"
           WHERE "newer"."address" = "job"."address" AND "newer"."kind" = "job"."kind" AND "newer"."status" = 'pending')`);
    }
    // The rest, due again: one statement per time in the batch.
    for (const time of new Set(again.map(({ dueAt }) => dueAt.getTime()))) {
      const ids = again.filter(({ dueAt }) => dueAt.getTime() === time).map(({ job }) => job.id);
      statements.push(
        prisma.notificationJob.updateMany({
          where: held(ids),
          data: { status: "pending", dueAt: new Date(time), lockedUntil: null, lockedBy: null, requestedAt: null, lastError, ...(counted ? {} : { attempts: { decrement: 1 } }) },
        }),
      );
    }
    const [failed, ...rest] = await prisma.$transaction(statements);
    const count = (result: { count: number } | number | undefined) => (typeof result === "number" ? result : (result?.count ?? 0));
    return { failed: count(failed), again: rest.reduce<number>((sum, result) => sum + count(result), 0) };
  }

  /**
   * A batch World never received (its body never left, a 429 from something in between): due again after a backoff
   * that doubles with each attempt, up to `maxAttempts`; a defect of ours (a request World would refuse) fails at once.
   */
  async function retryLater(jobs: LeasedJob[], error: TransportError, summary: RunSummary): Promise<void> {
    const now = Date.now();
    const retryable = error.failure === "not-sent";
    const { failed, again } = await putBack(
      jobs,
      error.message,
      (job) => (retryable && job.attempts < options.maxAttempts ? new Date(now + BASE_RETRY_MS * 2 ** (job.attempts - 1)) : null),
      true,
    );
    summary.failed += failed;
    summary.retried += again;
  }

  /**
   * Their request's body left and World answered a 5xx, or nothing, or nothing readable: World may have delivered
   * them (it retries its upstream for minutes with a key of its own, and a second request would be a second send), so
   * they end `unknown`, with the reason, and are never sent again.
   */
  async function markUnknown(jobs: LeasedJob[], error: TransportError, summary: RunSummary): Promise<void> {
    const { count } = await prisma.notificationJob.updateMany({
      where: answered(jobs.map((job) => job.id)),
      data: { status: "unknown", lockedUntil: null, result: error.message.slice(0, 500) },
    });
    summary.unknown += count;
    log.warn({ jobs: count, reason: error.message.slice(0, 300) }, "reminders may or may not have reached their users (World answered a 5xx or nothing): not sent again");
  }

  /**
   * World's quota for unverified apps refused the request (nothing sent): from now on for a window the batches keep
   * within it (the app is not verified, whatever was configured), and these are due once the window allows more.
   */
  async function deferForQuota(jobs: LeasedJob[], error: TransportError, summary: RunSummary): Promise<void> {
    if (!keepsQuota()) {
      log.warn({ limit: UNVERIFIED_APP_LIMIT, windowHours: UNVERIFIED_APP_WINDOW_MS / 3_600_000 }, "World limits the app to 40 reminders per 4 hours (not verified): sending within that, the rest later");
    }
    unverifiedUntil = Math.max(unverifiedUntil, Date.now() + UNVERIFIED_APP_WINDOW_MS);
    // The refused request counted nothing at World: the window frees up as the oldest request in it ages out.
    const { oldest } = await quotaUsed(prisma, jobs.map((job) => job.id));
    const dueAt = new Date(oldest ? oldest.getTime() + UNVERIFIED_APP_WINDOW_MS : Date.now() + refusalPauseMs);
    summary.deferred += (await putBack(jobs, error.message, () => dueAt, false)).again;
  }

  /**
   * World refused the request before sending (its code says why: `not_allowed`, `api_key_inactive`, `app_not_found`,
   * …): every request would be, until an operator acts, so sending stops, with one error line and the
   * `oro_api_reminders_stopped` gauge (alert RemindersRefusedByWorld); after `refusalPauseMs` one reminder tries again.
   * The batch is due again as it was.
   */
  async function stopSending(jobs: LeasedJob[], error: TransportError, summary: RunSummary): Promise<void> {
    const code = error.code ?? "refused";
    if (!stopped || stopped.code !== code) {
      log.error({ code, reason: error.message.slice(0, 300), retryInMinutes: refusalPauseMs / 60_000 }, `World refuses reminders (${code}): sending stopped; fix the app in World's developer portal or WORLD_APP_API_KEY (${REFUSAL_ADVICE[code] ?? "see its message"})`);
    }
    stopped = { code, since: stopped?.code === code ? stopped.since : new Date(), retryAt: Date.now() + refusalPauseMs, probing: false };
    const now = new Date();
    summary.deferred += (await putBack(jobs, error.message, () => now, false)).again;
  }

  /**
   * The nudges still worth sending: the streak is alive and within the window before it lapses (a claim since moved
   * the lapse later: the nudge moves with it).
   */
  async function vetStreakNudges(jobs: LeasedJob[], summary: RunSummary): Promise<LeasedJob[]> {
    const now = clock.now().getTime();
    const due: LeasedJob[] = [];
    for (const job of jobs) {
      let streak;
      try {
        streak = await indexer.streak(job.address as Address);
      } catch (error) {
        if (!(error instanceof IndexerUnavailableError)) throw error;
        await retryLater([job], new TransportError("the indexer did not answer: the streak cannot be checked", "not-sent"), summary);
        continue;
      }
      const lapseAt = streak.streakExpiresAt === null ? null : streak.streakExpiresAt * 1000;
      if (streak.currentStreak === 0 || lapseAt === null || now >= lapseAt) {
        await prisma.notificationJob.updateMany({ where: held([job.id]), data: { status: "cancelled", lockedUntil: null, result: "the streak had already lapsed" } });
        continue;
      }
      if (now < lapseAt - riskWindowMs) {
        await prisma.notificationJob.updateMany({
          where: held([job.id]),
          data: { status: "pending", dueAt: new Date(lapseAt - riskWindowMs), lockedUntil: null, lockedBy: null, attempts: { decrement: 1 }, result: "claimed since: moved" },
        });
        continue;
      }
      due.push(job);
    }
    return due;
  }

  /**
   * World's per-day setting: the jobs (in the order given) that keep each address within `perUserPerDay` reminders
   * this UTC day (the API's clock: the chain's when a local chain runs ahead). Counted are the reminders sent today
   * and those another worker (or lane) is sending now, so two never both use the last one (in a tight race both may
   * hold back: fewer, never more). The others are `not_delivered`.
   */
  async function withinDailyBudget(jobs: LeasedJob[], summary: RunSummary): Promise<LeasedJob[]> {
    if (perUserPerDay === null || jobs.length === 0) return jobs;
    const dayStart = new Date(clock.now().getTime());
    dayStart.setUTCHours(0, 0, 0, 0);
    // One grouped count for the whole batch (a batch is up to 1,000 addresses): the budget check costs one query,
    // not one per reminder.
    const counts = await prisma.notificationJob.groupBy({
      by: ["address"],
      where: {
        address: { in: [...new Set(jobs.map((job) => job.address))] },
        id: { notIn: jobs.map((job) => job.id) },
        OR: [{ status: "sent", sentAt: { gte: dayStart } }, { status: "sending" }],
      },
      _count: { _all: true },
    });
    const used = new Map(counts.map((row) => [row.address, row._count._all]));
    const allowed: LeasedJob[] = [];
    const over: string[] = [];
    for (const job of jobs) {
      const count = used.get(job.address) ?? 0;
      if (count >= perUserPerDay) {
        over.push(job.id);
        continue;
      }
      used.set(job.address, count + 1);
      allowed.push(job);
    }
    if (over.length > 0) {
      await prisma.notificationJob.updateMany({
        where: held(over),
        data: { status: "not_delivered", lockedUntil: null, result: `World's per-day setting: ${perUserPerDay} a user a day, reached today` },
      });
      summary.notDelivered += over.length;
    }
    return allowed;
  }

  /**
   * The jobs of a request this worker sent: World's answer is the truth about them, also when another worker, having
   * seen their lease run out while World was answering, marked them abandoned meanwhile.
   */
  function answered(ids: string[]): Prisma.NotificationJobWhereInput {
    return { id: { in: ids }, lockedBy: workerId, status: { in: ["sending", "abandoned"] } };
  }

  /** Sends one request; false when World refused it as a whole (a 429, a quota, a defect): the pass then stops. */
  async function sendBatch(jobs: LeasedJob[], summary: RunSummary, texts: Localisation[]): Promise<boolean> {
    if (jobs.length === 0) return true;
    const recipients: Recipient[] = jobs.map((job) => ({ jobId: job.id, address: job.address, locale: toLocale(job.locale) }));
    // Once the request is built and checked, right before it leaves: from then on it may reach World, and a worker
    // that dies leaves these jobs to be abandoned, not resent. Only if this worker still holds every one of them: a
    // worker slowed past its lease may have seen another release them and send them, and its body then never leaves.
    const requestStarting = async () => {
      const ids = jobs.map((job) => job.id);
      const until = new Date(clock.now().getTime() + options.leaseMs);
      const marked = await prisma.$executeRaw`
        WITH "held" AS (
          SELECT "id" FROM "notification_job"
           WHERE "id" IN (${Prisma.join(ids)}) AND "status" = 'sending' AND "locked_by" = ${workerId}
           FOR UPDATE)
        UPDATE "notification_job" SET "result" = ${REQUESTED}, "locked_until" = ${until}, "requested_at" = ${new Date()}
         WHERE "id" IN (SELECT "id" FROM "held") AND (SELECT count(*) FROM "held") = ${ids.length}`;
      if (marked !== ids.length) throw new Error(`the lease of ${ids.length - marked} of these reminders ran out and another worker took them: not sent from here`);
    };
    let results;
    try {
      results = await transport.send(recipients, { localisations: texts, miniAppPath: link }, requestStarting);
    } catch (error) {
      const failure = error instanceof TransportError ? error : new TransportError((error as Error).message, "defect");
      if (failure.failure === "unknown") await markUnknown(jobs, failure, summary);
      else if (failure.failure === "quota") await deferForQuota(jobs, failure, summary);
      else if (failure.failure === "refused") await stopSending(jobs, failure, summary);
      else {
        if (failure.failure === "not-sent") log.warn({ err: failure, jobs: jobs.length }, "sending reminders failed before World got them: retrying later");
        else log.error({ err: failure, jobs: jobs.length }, "reminders World would refuse by its rules: not sent (a defect)");
        await retryLater(jobs, failure, summary);
      }
      return false;
    }
    if (stopped) {
      log.info({ code: stopped.code, since: stopped.since }, "World takes reminders again: sending resumed");
      stopped = null;
    }
    const byAddress = new Map(results.map((result) => [result.address.toLowerCase(), result]));
    // The day a reminder counts against (World's per-day setting) is the API's clock's.
    const sentAt = clock.now();
    const sent = jobs.filter((job) => byAddress.get(job.address)?.sent === true);
    await prisma.notificationJob.updateMany({
      where: answered(sent.map((job) => job.id)),
      data: { status: "sent", sentAt, lockedUntil: null, result: "sent" },
    });
    summary.sent += sent.length;
    // The ones World did not deliver, one statement per reason (most share one: not opted in, say).
    const notDelivered = new Map<string, string[]>();
    for (const job of jobs) {
      const result = byAddress.get(job.address);
      if (result?.sent === true) continue;
      const reason = (result?.reason ?? "not delivered").slice(0, 500);
      notDelivered.set(reason, [...(notDelivered.get(reason) ?? []), job.id]);
    }
    for (const [reason, ids] of notDelivered) {
      await prisma.notificationJob.updateMany({ where: answered(ids), data: { status: "not_delivered", lockedUntil: null, result: reason } });
      summary.notDelivered += ids.length;
    }
    log.info({ transport: transport.name, sent: summary.sent, notDelivered: summary.notDelivered }, "reminders sent");
    return true;
  }

  /**
   * Sends every due reminder, in batches the transport takes, until none is due or the pass has run `budgetMs` (a
   * million due in one hour drain in passes, not ten batches a tick), or `stopping` is aborted (the process is
   * shutting down: the requests out are answered, no new batch is leased); returns what happened.
   */
  async function runOnce(budgetMs = 60_000, stopping?: AbortSignal): Promise<RunSummary> {
    const summary: RunSummary = { sent: 0, notDelivered: 0, retried: 0, failed: 0, unknown: 0, deferred: 0, abandoned: 0, released: 0 };
    try {
      return await pass(summary, budgetMs, stopping);
    } finally {
      for (const outcome of Object.keys(totals) as (keyof RunSummary)[]) totals[outcome] += summary[outcome];
    }
  }

  async function pass(summary: RunSummary, budgetMs: number, stopping?: AbortSignal): Promise<RunSummary> {
    ({ abandoned: summary.abandoned, released: summary.released } = await abandonExpiredLeases(new Date()));
    const started = Date.now();
    const lane = async () => {
      while (Date.now() - started < budgetMs && !stopping?.aborted) {
        // After a refusal nothing is sent until the pause is over; then one lane tries one reminder.
        const probe = stopped !== null;
        if (stopped) {
          if (stopped.probing || Date.now() < stopped.retryAt) return;
          stopped.probing = true;
        }
        try {
          const jobs = await leaseInTurn(probe ? 1 : transport.maxRecipients);
          if (jobs.length === 0) return;
          const release = holdLease(jobs.map((job) => job.id));
          let claimsSent: boolean, nudgesSent: boolean;
          try {
            // The nudges are checked against the chain first; then World's per-day setting, a nudge ahead of a claim
            // reminder due with it (it says the claim is open, and more); one request per kind (the texts differ).
            const nudges = await vetStreakNudges(jobs.filter((job) => job.kind === STREAK_AT_RISK_KIND), summary);
            const allowed = await withinDailyBudget([...nudges, ...jobs.filter((job) => job.kind !== STREAK_AT_RISK_KIND)], summary);
            claimsSent = await sendBatch(allowed.filter((job) => job.kind !== STREAK_AT_RISK_KIND), summary, claimReminderLocalisations());
            nudgesSent = await sendBatch(allowed.filter((job) => job.kind === STREAK_AT_RISK_KIND), summary, streakAtRiskLocalisations());
          } finally {
            release();
          }
          // World said wait (or refused the request): this lane tries again next pass, after the batch's backoff.
          if (!claimsSent || !nudgesSent || stopped) return;
        } finally {
          if (probe && stopped) stopped.probing = false;
        }
      }
    };
    // Every lane ends before the pass does (a lane that failed does not leave the others running into the next pass).
    const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, lane));
    const failed = lanes.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed) throw failed.reason;
    return summary;
  }

  /**
   * Deletes the finished jobs older than the retention, `batch` a statement (short locks), so that the table holds
   * days of reminders, not every one ever sent; returns how many.
   */
  async function purgeFinished(batch = PURGE_BATCH): Promise<number> {
    const before = new Date(clock.now().getTime() - (options.retentionMs ?? 7 * 86_400_000));
    const where = Prisma.sql`"status" IN ('sent', 'not_delivered', 'failed', 'abandoned', 'cancelled') AND "updated_at" < ${before}`;
    return deleteInBatches(prisma, "notification_job", where, batch);
  }

  /** What the metrics show of the sending: stopped by a refusal of World's (its code, since when), the quota kept. */
  function sendingState(): { stopped: { code: string; since: Date } | null; keepsQuota: boolean } {
    return { stopped: stopped ? { code: stopped.code, since: stopped.since } : null, keepsQuota: keepsQuota() };
  }

  /**
   * What this process's passes have done since it started, by outcome: the metrics' counter (a failure alert on a
   * count of rows would stop seeing failures once the purge or its cap holds the count still).
   */
  function settledTotals(): Readonly<RunSummary> {
    return totals;
  }

  return { setLocale, scheduleClaimReminder, runOnce, purgeFinished, sendingState, settledTotals };
}
