import type { Address } from "viem";
import { IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import { toLocale } from "../../lib/locales.js";
import { claimReminderLocalisations, streakAtRiskLocalisations, type Localisation } from "./messages.js";
import { abandonExpiredLeases, held, holdLease, lease, leaseWithinQuota, markRequested, putBack, STREAK_AT_RISK_KIND, type LeasedJob } from "./reminder-jobs.js";
import { emptySummary, retryLater, settleAnswered, settleFailed, type RunSummary, type Settling } from "./reminder-outcomes.js";
import { TransportError, type NotificationTransport, type Recipient } from "./transport.js";

/** What sending needs, its defaults settled (reminders.ts reads the options). */
export interface ReminderDeliveryParts extends Settling {
  indexer: IndexerClient;
  transport: NotificationTransport;
  /** The deep link the reminders open. */
  link: string;
  /** Requests a worker has out at once (lanes). */
  concurrency: number;
  /** How long before a streak would lapse the nudge comes. */
  riskWindowMs: number;
  /** At most this many reminders reach one address in one UTC day; null is unlimited. */
  perUserPerDay: number | null;
}

/**
 * The sending of due reminders: at most once. A job whose worker died while it was `sending` may or may not have
 * reached the wallet, so it is marked `abandoned`, never sent again. A send that failed as a whole without reaching
 * the portal, or with a 429/5xx, goes back to `pending` with a backoff, up to `maxAttempts`.
 */
export function createReminderDelivery(parts: ReminderDeliveryParts) {
  const { worker, standing, transport } = parts;
  /**
   * The lanes of this worker lease one after another. Leased at once, their statements raced through the same due
   * rows, each skipping the rows another had just locked (SKIP LOCKED), and split what was due between them: 1,005
   * due left in three requests of 1, 4 and 1,000 on a loaded machine, where two carry them (CI's failure of the
   * transport's batch test), and under World's unverified quota each lane would take the window's whole allowance.
   */
  let leasing: Promise<unknown> = Promise.resolve();
  const totals = emptySummary();
  let passesCompleted = 0;

  function leaseInTurn(limit: number): Promise<LeasedJob[]> {
    const leased = leasing.then(() => (standing.keepsQuota() ? leaseWithinQuota(worker, limit) : lease(worker, worker.prisma, worker.clock.now(), limit)));
    leasing = leased.catch(() => undefined);
    return leased;
  }

  /** Sends one request; false when World refused it as a whole (a 429, a quota, a defect): the pass then stops. */
  async function sendBatch(jobs: LeasedJob[], summary: RunSummary, texts: Localisation[], probing: boolean): Promise<boolean> {
    if (jobs.length === 0) return true;
    // World refused another lane's request after this batch was leased: nothing more goes until the pause is over (but
    // the probe), so the batch is due again as it was, its lease no attempt. (On a loaded machine a lane leased the
    // jobs the refused request had just put back, and sent them again: two refused requests in one pass.)
    if (!probing && standing.isStopped()) {
      await putBack(worker, jobs, "not sent: World refuses reminders", () => new Date(), false);
      return false;
    }
    const recipients: Recipient[] = jobs.map((job) => ({ jobId: job.id, address: job.address, locale: toLocale(job.locale) }));
    // Once the request is built and checked, right before it leaves (see markRequested).
    const requestStarting = () => markRequested(worker, jobs.map((job) => job.id));
    let results;
    try {
      results = await transport.send(recipients, { localisations: texts, miniAppPath: parts.link }, requestStarting);
    } catch (error) {
      await settleFailed(parts, jobs, error, summary);
      return false;
    }
    await settleAnswered(parts, jobs, results, summary);
    worker.log.info({ transport: transport.name, sent: summary.sent, notDelivered: summary.notDelivered }, "reminders sent");
    return true;
  }

  /** One batch of due jobs, leased: the nudges vetted, World's per-day setting kept, one request per kind. */
  async function sendLeased(jobs: LeasedJob[], summary: RunSummary, probing: boolean): Promise<boolean> {
    const release = holdLease(worker, jobs.map((job) => job.id));
    try {
      // The nudges are checked against the chain first; then World's per-day setting, a nudge ahead of a claim
      // reminder due with it (it says the claim is open, and more); one request per kind (the texts differ).
      const nudges = await vetStreakNudges(parts, jobs.filter((job) => job.kind === STREAK_AT_RISK_KIND), summary);
      const allowed = await withinDailyBudget(parts, [...nudges, ...jobs.filter((job) => job.kind !== STREAK_AT_RISK_KIND)], summary);
      const claimsSent = await sendBatch(allowed.filter((job) => job.kind !== STREAK_AT_RISK_KIND), summary, claimReminderLocalisations(), probing);
      const nudgesSent = await sendBatch(allowed.filter((job) => job.kind === STREAK_AT_RISK_KIND), summary, streakAtRiskLocalisations(), probing);
      return claimsSent && nudgesSent;
    } finally {
      release();
    }
  }

  async function pass(summary: RunSummary, budgetMs: number, stopping?: AbortSignal): Promise<RunSummary> {
    ({ abandoned: summary.abandoned, released: summary.released } = await abandonExpiredLeases(worker, new Date()));
    const started = Date.now();
    const lane = async () => {
      while (Date.now() - started < budgetMs && !stopping?.aborted) {
        // After a refusal nothing is sent until the pause is over; then one lane tries one reminder.
        const turn = standing.turn();
        if (turn === "wait") return;
        try {
          const jobs = await leaseInTurn(turn === "probe" ? 1 : transport.maxRecipients);
          if (jobs.length === 0) return;
          // World said wait (or refused the request): this lane tries again next pass, after the batch's backoff.
          if (!(await sendLeased(jobs, summary, turn === "probe")) || standing.isStopped()) return;
        } finally {
          if (turn === "probe") standing.probeDone();
        }
      }
    };
    // Every lane ends before the pass does (a lane that failed does not leave the others running into the next pass).
    const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, parts.concurrency) }, lane));
    const failed = lanes.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed) throw failed.reason;
    return summary;
  }

  /**
   * Sends every due reminder, in batches the transport takes, until none is due or the pass has run `budgetMs` (a
   * million due in one hour drain in passes, not ten batches a tick), or `stopping` is aborted (the process is
   * shutting down: the requests out are answered, no new batch is leased); returns what happened.
   */
  async function runOnce(budgetMs = 60_000, stopping?: AbortSignal): Promise<RunSummary> {
    const summary = emptySummary();
    try {
      const settled = await pass(summary, budgetMs, stopping);
      passesCompleted += 1;
      return settled;
    } finally {
      for (const outcome of Object.keys(totals) as (keyof RunSummary)[]) totals[outcome] += summary[outcome];
    }
  }

  /**
   * What this process's passes have done since it started, by outcome: the metrics' counter (a failure alert on a
   * count of rows would stop seeing failures once the purge or its cap holds the count still).
   */
  function settledTotals(): Readonly<RunSummary> {
    return totals;
  }

  /** Passes of this process that ran to their end: the sign that the scheduler is alive, due reminders or none. */
  function completedPasses(): number {
    return passesCompleted;
  }

  return { runOnce, settledTotals, completedPasses, sendingState: () => standing.sendingState() };
}

/**
 * The nudges still worth sending: the streak is alive and within the window before it lapses (a claim since moved
 * the lapse later: the nudge moves with it).
 */
async function vetStreakNudges(parts: ReminderDeliveryParts, jobs: LeasedJob[], summary: RunSummary): Promise<LeasedJob[]> {
  const { worker, riskWindowMs } = parts;
  const now = worker.clock.now().getTime();
  const due: LeasedJob[] = [];
  for (const job of jobs) {
    let streak;
    try {
      streak = await parts.indexer.streak(job.address as Address);
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      await retryLater(parts, [job], new TransportError("the indexer did not answer: the streak cannot be checked", "not-sent"), summary);
      continue;
    }
    const lapseAt = streak.streakExpiresAt === null ? null : streak.streakExpiresAt * 1000;
    if (streak.currentStreak === 0 || lapseAt === null || now >= lapseAt) {
      await worker.prisma.notificationJob.updateMany({ where: held(worker, [job.id]), data: { status: "cancelled", lockedUntil: null, result: "the streak had already lapsed" } });
      continue;
    }
    if (now < lapseAt - riskWindowMs) {
      await worker.prisma.notificationJob.updateMany({
        where: held(worker, [job.id]),
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
async function withinDailyBudget(parts: ReminderDeliveryParts, jobs: LeasedJob[], summary: RunSummary): Promise<LeasedJob[]> {
  const { worker, perUserPerDay } = parts;
  if (perUserPerDay === null || jobs.length === 0) return jobs;
  const dayStart = new Date(worker.clock.now().getTime());
  dayStart.setUTCHours(0, 0, 0, 0);
  // One grouped count for the whole batch (a batch is up to 1,000 addresses): the budget check costs one query,
  // not one per reminder.
  const counts = await worker.prisma.notificationJob.groupBy({
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
    await worker.prisma.notificationJob.updateMany({
      where: held(worker, over),
      data: { status: "not_delivered", lockedUntil: null, result: `World's per-day setting: ${perUserPerDay} a user a day, reached today` },
    });
    summary.notDelivered += over.length;
  }
  return allowed;
}
