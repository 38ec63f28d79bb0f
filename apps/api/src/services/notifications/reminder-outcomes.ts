import { answered, putBack, quotaUsed, type LeasedJob, type ReminderWorker } from "./reminder-jobs.js";
import { TransportError, type DeliveryResult } from "./transport.js";
import { UNVERIFIED_APP_WINDOW_MS } from "./world-route.js";
import type { WorldStanding } from "./world-standing.js";

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

export function emptySummary(): RunSummary {
  return { sent: 0, notDelivered: 0, retried: 0, failed: 0, unknown: 0, deferred: 0, abandoned: 0, released: 0 };
}

const BASE_RETRY_MS = 30_000;

/** What settling a batch needs: the worker that holds it, what World thinks of the app, and the retry rules. */
export interface Settling {
  worker: ReminderWorker;
  standing: WorldStanding;
  maxAttempts: number;
  refusalPauseMs: number;
}

/** World's answer to a request it took: each job sent, or not delivered with World's reason (one statement per reason). */
export async function settleAnswered(settling: Settling, jobs: LeasedJob[], results: DeliveryResult[], summary: RunSummary): Promise<void> {
  const { worker } = settling;
  settling.standing.accepted();
  const byAddress = new Map(results.map((result) => [result.address.toLowerCase(), result]));
  // The day a reminder counts against (World's per-day setting) is the API's clock's.
  const sentAt = worker.clock.now();
  const sent = jobs.filter((job) => byAddress.get(job.address)?.sent === true);
  await worker.prisma.notificationJob.updateMany({
    where: answered(worker, sent.map((job) => job.id)),
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
    await worker.prisma.notificationJob.updateMany({ where: answered(worker, ids), data: { status: "not_delivered", lockedUntil: null, result: reason } });
    summary.notDelivered += ids.length;
  }
}

/** A request that failed as a whole: what its failure proves decides what becomes of its jobs (see SendFailure). */
export async function settleFailed(settling: Settling, jobs: LeasedJob[], error: unknown, summary: RunSummary): Promise<void> {
  const failure = error instanceof TransportError ? error : new TransportError((error as Error).message, "defect");
  if (failure.failure === "unknown") return markUnknown(settling, jobs, failure, summary);
  if (failure.failure === "quota") return deferForQuota(settling, jobs, failure, summary);
  if (failure.failure === "refused") return stopSending(settling, jobs, failure, summary);
  const { log } = settling.worker;
  if (failure.failure === "not-sent") log.warn({ err: failure, jobs: jobs.length }, "sending reminders failed before World got them: retrying later");
  else log.error({ err: failure, jobs: jobs.length }, "reminders World would refuse by its rules: not sent (a defect)");
  await retryLater(settling, jobs, failure, summary);
}

/**
 * A batch World never received (its body never left, a 429 from something in between): due again after a backoff
 * that doubles with each attempt, up to `maxAttempts`; a defect of ours (a request World would refuse) fails at once.
 */
export async function retryLater(settling: Settling, jobs: LeasedJob[], error: TransportError, summary: RunSummary): Promise<void> {
  const now = Date.now();
  const retryable = error.failure === "not-sent";
  const { failed, again } = await putBack(
    settling.worker,
    jobs,
    error.message,
    (job) => (retryable && job.attempts < settling.maxAttempts ? new Date(now + BASE_RETRY_MS * 2 ** (job.attempts - 1)) : null),
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
async function markUnknown(settling: Settling, jobs: LeasedJob[], error: TransportError, summary: RunSummary): Promise<void> {
  const { worker } = settling;
  const { count } = await worker.prisma.notificationJob.updateMany({
    where: answered(worker, jobs.map((job) => job.id)),
    data: { status: "unknown", lockedUntil: null, result: error.message.slice(0, 500) },
  });
  summary.unknown += count;
  worker.log.warn({ jobs: count, reason: error.message.slice(0, 300) }, "reminders may or may not have reached their users (World answered a 5xx or nothing): not sent again");
}

/**
 * World's quota for unverified apps refused the request (nothing sent): from now on for a window the batches keep
 * within it (the app is not verified, whatever was configured), and these are due once the window allows more.
 */
async function deferForQuota(settling: Settling, jobs: LeasedJob[], error: TransportError, summary: RunSummary): Promise<void> {
  settling.standing.quotaRefused();
  // The refused request counted nothing at World: the window frees up as the oldest request in it ages out.
  const { oldest } = await quotaUsed(settling.worker.prisma, jobs.map((job) => job.id));
  const dueAt = new Date(oldest ? oldest.getTime() + UNVERIFIED_APP_WINDOW_MS : Date.now() + settling.refusalPauseMs);
  summary.deferred += (await putBack(settling.worker, jobs, error.message, () => dueAt, false)).again;
}

/** World refused the request before sending: sending stops (see WorldStanding.refused); the batch is due again as it was. */
async function stopSending(settling: Settling, jobs: LeasedJob[], error: TransportError, summary: RunSummary): Promise<void> {
  settling.standing.refused(error.code ?? "refused", error.message);
  const now = new Date();
  summary.deferred += (await putBack(settling.worker, jobs, error.message, () => now, false)).again;
}
