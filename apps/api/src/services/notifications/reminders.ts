import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { wallClock, type ChainClock } from "../chain/index.js";
import { PURGE_BATCH } from "../../lib/delete-in-batches.js";
import type { IndexerClient } from "../indexer/index.js";
import { createReminderDelivery } from "./reminder-delivery.js";
import { purgeFinishedJobs, type ReminderWorker } from "./reminder-jobs.js";
import { createReminderScheduling } from "./reminder-scheduling.js";
import { miniAppLink, type NotificationTransport } from "./transport.js";
import { createWorldStanding } from "./world-standing.js";

export { CLAIM_REMINDER_KIND, STREAK_AT_RISK_KIND } from "./reminder-jobs.js";
export type { RunSummary } from "./reminder-outcomes.js";
export type { ScheduledReminder } from "./reminder-scheduling.js";

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

const DEFAULT_REFUSAL_PAUSE_MS = 15 * 60_000;

export type ReminderService = ReturnType<typeof createReminderService>;

/**
 * Claim reminders: stored as jobs in `notification_job`, so they survive restarts, and sent by whichever API
 * process leases them first. Scheduling (reminder-scheduling.ts) writes the jobs; delivery (reminder-delivery.ts)
 * leases the due ones (reminder-jobs.ts), sends them through the transport and settles each by World's answer
 * (reminder-outcomes.ts), keeping to what World holds of the app (world-standing.ts).
 *
 * Times are the API's clock (passed in the statements), not the database's; due times follow the chain's clock when
 * it runs ahead of the machine's (see chain-clock.ts).
 */
export function createReminderService(options: ReminderServiceOptions) {
  const { prisma, indexer, log } = options;
  const clock = options.clock ?? wallClock;
  const worker: ReminderWorker = { prisma, workerId: randomUUID(), leaseMs: options.leaseMs, clock, log };
  const riskWindowMs = options.streakAtRiskWindowMs ?? 4 * 3_600_000;
  const refusalPauseMs = options.refusalPauseMs ?? DEFAULT_REFUSAL_PAUSE_MS;
  const scheduling = createReminderScheduling({ prisma, indexer, clock, riskWindowMs, log });
  const delivery = createReminderDelivery({
    worker,
    standing: createWorldStanding({ worldVerified: options.worldVerified, refusalPauseMs, log }),
    indexer,
    transport: options.transport,
    link: miniAppLink(options.appId, options.miniAppPath),
    maxAttempts: options.maxAttempts,
    concurrency: options.concurrency ?? 1,
    riskWindowMs,
    perUserPerDay: options.perUserPerDay === undefined ? 1 : options.perUserPerDay,
    refusalPauseMs,
  });

  /**
   * Deletes the finished jobs older than the retention, `batch` a statement (short locks), so that the table holds
   * days of reminders, not every one ever sent; returns how many.
   */
  function purgeFinished(batch = PURGE_BATCH): Promise<number> {
    return purgeFinishedJobs(prisma, new Date(clock.now().getTime() - (options.retentionMs ?? 7 * 86_400_000)), batch);
  }

  return { ...scheduling, ...delivery, purgeFinished };
}
