import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import type { ChainClock } from "../chain/index.js";
import { deleteInBatches } from "../../lib/delete-in-batches.js";
import type { Locale } from "../../lib/locales.js";
import { UNVERIFIED_APP_LIMIT, UNVERIFIED_APP_WINDOW_MS } from "./world-route.js";

export const CLAIM_REMINDER_KIND = "oro_claim";
/** The nudge before a streak lapses: scheduled with the claim reminder, sent only if the human has not claimed. */
export const STREAK_AT_RISK_KIND = "oro_streak_at_risk";

/** Serialises the replicas' leases while World's quota for unverified apps is kept (an advisory lock's key). */
const QUOTA_LOCK_KEY = 0x4f524f5155; // "OROQU"
/** A leased job's `result` once its request to World has started (cleared by every lease). */
const REQUESTED = "requested";

export interface LeasedJob {
  id: string;
  kind: string;
  address: string;
  locale: string;
  attempts: number;
}

/** One API process as it works through `notification_job`: its leases are its own, by its id. */
export interface ReminderWorker {
  prisma: PrismaClient;
  workerId: string;
  /** How long a lease lasts before another worker may take (or abandon) the jobs. */
  leaseMs: number;
  /** When jobs are due: the wall clock, or the chain's when it runs ahead. */
  clock: ChainClock;
  log: FastifyBaseLogger;
}

/** One pending job per (address, kind): scheduling again moves it. */
export async function upsertJob(prisma: PrismaClient, kind: string, address: string, locale: Locale, dueAt: Date) {
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

/** These jobs while this worker still holds them (another may have taken them once a lease ran out). */
export function held(worker: ReminderWorker, ids: string[]): Prisma.NotificationJobWhereInput {
  return { id: { in: ids }, status: "sending", lockedBy: worker.workerId };
}

/**
 * The jobs of a request this worker sent: World's answer is the truth about them, also when another worker, having
 * seen their lease run out while World was answering, marked them abandoned meanwhile.
 */
export function answered(worker: ReminderWorker, ids: string[]): Prisma.NotificationJobWhereInput {
  return { id: { in: ids }, lockedBy: worker.workerId, status: { in: ["sending", "abandoned"] } };
}

/**
 * Leasing is one statement that flips due `pending` rows to `sending` (`FOR UPDATE SKIP LOCKED` on PostgreSQL; PGlite
 * has a single connection, so the statement alone is atomic there): two workers never get the same job.
 */
export async function lease(worker: ReminderWorker, db: Prisma.TransactionClient | PrismaClient, now: Date, limit: number): Promise<LeasedJob[]> {
  const until = new Date(now.getTime() + worker.leaseMs);
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
       SET "status" = 'sending', "locked_until" = ${until}, "locked_by" = ${worker.workerId},
           "attempts" = "job"."attempts" + 1, "result" = NULL, "updated_at" = ${now}
      FROM "picked"
     WHERE "job"."id" = "picked"."id" AND "job"."status" = 'pending'
    RETURNING "job"."id", "job"."kind", "job"."address", "job"."locale", "job"."attempts"`;
}

/**
 * World's quota for unverified apps: a request that would take its 4-hour window past 40 notifications is refused
 * whole. Its window starts at its first notification; kept here as any 4 hours, it holds whenever World's starts.
 * Counted are the reminders requested in the last 4 hours (World's clock: this machine's) and those leased and
 * about to be; the replicas lease one at a time under an advisory lock, so together they stay within it.
 */
export async function quotaUsed(db: Prisma.TransactionClient | PrismaClient, excluding: string[] = []): Promise<{ used: number; oldest: Date | null }> {
  const since = new Date(Date.now() - UNVERIFIED_APP_WINDOW_MS);
  const others = excluding.length > 0 ? Prisma.sql`AND "id" NOT IN (${Prisma.join(excluding)})` : Prisma.empty;
  const [row] = await db.$queryRaw<{ used: number; oldest: Date | null }[]>`
    SELECT count(*)::int AS "used", min("requested_at") AS "oldest" FROM "notification_job"
     WHERE ("requested_at" > ${since} OR ("status" = 'sending' AND "requested_at" IS NULL)) ${others}`;
  return { used: row?.used ?? 0, oldest: row?.oldest ?? null };
}

/** A lease that keeps World's quota for unverified apps, taken under the replicas' advisory lock. */
export function leaseWithinQuota(worker: ReminderWorker, limit: number): Promise<LeasedJob[]> {
  return worker.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 AS "locked" FROM pg_advisory_xact_lock(${QUOTA_LOCK_KEY})`;
    const allowance = Math.min(limit, UNVERIFIED_APP_LIMIT - (await quotaUsed(tx)).used);
    return allowance > 0 ? lease(worker, tx, worker.clock.now(), allowance) : [];
  });
}

/**
 * Keeps the lease of these jobs from the moment they are leased until each is settled: while the streak nudges are
 * checked against the indexer, while the lane's first request is out and its second waits for it, and while World
 * answers (only once its own retries are over: up to minutes). A lease that ran out meanwhile would let another
 * worker abandon them or, not yet requested, send them again. A worker that stops renews no more. Returns the stop.
 */
export function holdLease(worker: ReminderWorker, ids: string[]): () => void {
  const renew = () => {
    const until = new Date(worker.clock.now().getTime() + worker.leaseMs);
    worker.prisma.notificationJob
      .updateMany({ where: held(worker, ids), data: { lockedUntil: until } })
      .catch((error: unknown) => worker.log.warn({ err: error, jobs: ids.length }, "could not renew the lease of reminders being sent"));
  };
  const timer = setInterval(renew, Math.max(worker.leaseMs / 3, 10));
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Marks these jobs requested, right before their request leaves: from then on it may reach World, and a worker that
 * dies leaves them to be abandoned, not resent. Only if this worker still holds every one of them: a worker slowed
 * past its lease may have seen another release them and send them, and its body then never leaves.
 */
export async function markRequested(worker: ReminderWorker, ids: string[]): Promise<void> {
  const until = new Date(worker.clock.now().getTime() + worker.leaseMs);
  const marked = await worker.prisma.$executeRaw`
    WITH "held" AS (
      SELECT "id" FROM "notification_job"
       WHERE "id" IN (${Prisma.join(ids)}) AND "status" = 'sending' AND "locked_by" = ${worker.workerId}
       FOR UPDATE)
    UPDATE "notification_job" SET "result" = ${REQUESTED}, "locked_until" = ${until}, "requested_at" = ${new Date()}
     WHERE "id" IN (SELECT "id" FROM "held") AND (SELECT count(*) FROM "held") = ${ids.length}`;
  if (marked !== ids.length) throw new Error(`the lease of ${ids.length - marked} of these reminders ran out and another worker took them: not sent from here`);
}

/**
 * Jobs left `sending` by a worker that stopped. Those whose request had started may have reached World: at most
 * once means they are not sent again. Those it had only leased never left this API: they are due again.
 */
export async function abandonExpiredLeases(worker: ReminderWorker, now: Date): Promise<{ abandoned: number; released: number }> {
  const { prisma, log } = worker;
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
 * Puts a batch World did not take back in one transaction: every job leaves `sending` together, so a worker killed
 * meanwhile leaves none of them marked as requested (which would abandon reminders World never received). `dueAgain`
 * gives each its new time, or null when it fails; one with a newer pending reminder for its address is cancelled
 * (superseded). `counted` false gives the attempt back: World refused before sending, through no fault of the
 * reminder's. Returns how many failed and how many are due again (or superseded).
 */
export async function putBack(
  worker: ReminderWorker,
  jobs: LeasedJob[],
  reason: string,
  dueAgain: (job: LeasedJob) => Date | null,
  counted: boolean,
): Promise<{ failed: number; again: number }> {
  const { prisma } = worker;
  const lastError = reason.slice(0, 500);
  const again = jobs.flatMap((job) => {
    const dueAt = dueAgain(job);
    return dueAt === null ? [] : [{ job, dueAt }];
  });
  const exhausted = jobs.filter((job) => !again.some((entry) => entry.job === job)).map((job) => job.id);
  const now = new Date();
  const statements: Prisma.PrismaPromise<{ count: number } | number>[] = [
    prisma.notificationJob.updateMany({ where: held(worker, exhausted), data: { status: "failed", lockedUntil: null, lastError } }),
  ];
  if (again.length > 0) {
    statements.push(prisma.$executeRaw`
      UPDATE "notification_job" AS "job" SET "status" = 'cancelled', "locked_until" = NULL, "last_error" = ${lastError}, "updated_at" = ${now}
       WHERE "job"."id" IN (${Prisma.join(again.map(({ job }) => job.id))}) AND "job"."status" = 'sending' AND "job"."locked_by" = ${worker.workerId} AND EXISTS (SELECT 1 FROM "notification_job" AS "newer"
         WHERE "newer"."address" = "job"."address" AND "newer"."kind" = "job"."kind" AND "newer"."status" = 'pending')`);
  }
  // The rest, due again: one statement per time in the batch.
  for (const time of new Set(again.map(({ dueAt }) => dueAt.getTime()))) {
    const ids = again.filter(({ dueAt }) => dueAt.getTime() === time).map(({ job }) => job.id);
    statements.push(
      prisma.notificationJob.updateMany({
        where: held(worker, ids),
        data: { status: "pending", dueAt: new Date(time), lockedUntil: null, lockedBy: null, requestedAt: null, lastError, ...(counted ? {} : { attempts: { decrement: 1 } }) },
      }),
    );
  }
  const [failed, ...rest] = await prisma.$transaction(statements);
  const count = (result: { count: number } | number | undefined) => (typeof result === "number" ? result : (result?.count ?? 0));
  return { failed: count(failed), again: rest.reduce<number>((sum, result) => sum + count(result), 0) };
}

/**
 * Deletes the finished jobs updated before `before`, `batch` a statement (short locks), so that the table holds days
 * of reminders, not every one ever sent; returns how many.
 */
export function purgeFinishedJobs(prisma: PrismaClient, before: Date, batch: number): Promise<number> {
  const where = Prisma.sql`"status" IN ('sent', 'not_delivered', 'failed', 'abandoned', 'cancelled') AND "updated_at" < ${before}`;
  return deleteInBatches(prisma, "notification_job", where, batch);
}
