import { createServer, type Server } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import { erc20Abi, formatEther } from "viem";
import { referralClaimAbi } from "@oro/clients";
import type { Config } from "../env.js";
import { RequestMetrics } from "../lib/request-metrics.js";
import { readIntoGauges, type GaugeValue } from "../lib/scrape-reading.js";
import type { RunSummary } from "../services/notifications/reminders.js";
import type { Services } from "./services.js";

/** Everything a scrape reads from outside the process gets this long; past it the gauge's series are removed. */
const SCRAPE_DEADLINE_MS = 1_500;
/** The reminder states are counted up to this many rows: enough to see any backlog, never a walk of the whole table. */
const REMINDERS_COUNTED_UP_TO = 100_000;

/**
 * Prometheus metrics, on a port of their own (METRICS_PORT) that Caddy does not forward: requests by route and
 * status with latency, 429s, payout jobs, reminders, the indexer as the API sees it, and the money the API is
 * responsible for (the claim contract's ORO against the vouchers outstanding, the payout wallet's ETH). Gauges
 * that need the database, the indexer or the chain are read at scrape time; a failing read removes that gauge's
 * series (never its last value, frozen) and counts the failure (`oro_api_scrape_errors_total`), so a scrape never
 * hangs or fails whole.
 */
export default fp<{ config: Config }>(
  async (fastify, { config }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: "oro_api_process_" });
    requestMetrics(fastify, registry);
    const scrapeErrors = new Counter({
      name: "oro_api_scrape_errors_total",
      help: "Scrape-time reads that failed or ran past the deadline, by gauge",
      labelNames: ["gauge"] as const,
      registers: [registry],
    });
    const guarded: Guarded = async (name, gauges, read) => {
      const error = await readIntoGauges(gauges, read, SCRAPE_DEADLINE_MS);
      if (error === undefined) return;
      scrapeErrors.inc({ gauge: name });
      fastify.log.warn({ err: error, gauge: name }, "metrics: a scrape-time read failed");
    };
    payoutMetrics(registry, fastify.services, guarded);
    reminderMetrics(registry, fastify.services, guarded);
    indexerMetrics(registry, fastify.services, guarded);
    moneyMetrics(registry, fastify.services, guarded);

    const store = fastify.rateLimitStore;
    if (store.shared) {
      new Gauge({
        name: "oro_api_rate_limit_store_up",
        help: "1 while the shared rate-limit store answers; 0: requests are not rate limited until it is back",
        registers: [registry],
        collect() {
          this.set(store.available() ? 1 : 0);
        },
      });
    }

    fastify.decorate("metrics", registry);

    if (config.metrics.port !== undefined) {
      const server = metricsServer(registry);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.metrics.port, config.metrics.host, () => resolve());
      });
      fastify.log.info(`metrics on http://${config.metrics.host}:${config.metrics.port}/metrics`);
      fastify.addHook("onClose", (_instance, done) => {
        server.close(() => done());
      });
    }
  },
  { name: "metrics", dependencies: ["services"] },
);

/** A scrape-time read into gauges, bounded by the deadline; a failure removes their series and is counted by `name`. */
type Guarded = (name: string, gauges: Gauge[], read: () => Promise<GaugeValue[]>) => Promise<void>;

/** Requests by route and status with latency, and the 429s. */
function requestMetrics(fastify: FastifyInstance, registry: Registry): void {
  const requests = new RequestMetrics({
    requests: { name: "oro_api_http_requests_total", help: "HTTP requests answered, by route pattern, method and status" },
    duration: {
      name: "oro_api_http_request_duration_seconds",
      help: "Time to answer, by route pattern and method",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    },
  });
  for (const metric of requests.metrics()) registry.registerMetric(metric);
  const rateLimited = new Counter({
    name: "oro_api_rate_limited_total",
    help: "Requests answered 429, by route pattern",
    labelNames: ["route"] as const,
    registers: [registry],
  });

  // Synchronous (no promise per request).
  fastify.addHook("onResponse", (request, reply, done) => {
    // The route's pattern, never the raw URL: addresses in paths would make a series per user.
    const route = request.routeOptions.url ?? "unmatched";
    requests.record(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) rateLimited.inc({ route });
    done();
  });
}

/** The vouchers the payout worker still has to submit, and how long the oldest has waited. */
function payoutMetrics(registry: Registry, { database: { prisma } }: Services, guarded: Guarded): void {
  const oldestPayout = new Gauge({
    name: "oro_api_payout_oldest_pending_seconds",
    help: "Age of the oldest voucher waiting for the payout worker (0 when none waits)",
    registers: [registry],
  });
  new Gauge({
    name: "oro_api_payout_jobs",
    help: "Vouchers the payout worker still has to submit: pending (not tried yet) and retrying",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      await guarded("payout_jobs", [this, oldestPayout], async () => {
        const rows = await prisma.referralReward.groupBy({ by: ["status"], where: { status: "payout_pending" }, _count: true, _min: { createdAt: true } });
        const retrying = await prisma.referralReward.count({ where: { status: "payout_pending", payoutAttempts: { gt: 0 } } });
        const total = rows.reduce((sum, row) => sum + row._count, 0);
        const oldest = rows[0]?._min.createdAt;
        return [
          [this, { state: "pending" }, total - retrying],
          [this, { state: "retrying" }, retrying],
          [oldestPayout, {}, oldest ? (Date.now() - oldest.getTime()) / 1000 : 0],
        ];
      });
    },
  });
}

/** Reminders: the states an operator acts on, what the passes settled, and whether World stopped or limits them. */
function reminderMetrics(registry: Registry, { database: { prisma }, reminders }: Services, guarded: Guarded): void {
  new Gauge({
    name: "oro_api_reminders",
    help: `Claim reminders an operator acts on, by state: due (pending and past due), failed, abandoned, unknown (World answered a 5xx or nothing after the request left: never sent again); each counted up to ${REMINDERS_COUNTED_UP_TO}`,
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      await guarded("reminders", [this], async () => {
        // Each a range of the (status, due_at) index read up to the cap: the sent reminders (millions a day at
        // production size, kept a week) and the scheduled ones (one per user) are never walked at a scrape.
        const [row] = await prisma.$queryRaw<{ due: number; failed: number; abandoned: number; unknown: number }[]>`
          SELECT (SELECT count(*) FROM (SELECT 1 FROM "notification_job" WHERE "status" = 'pending' AND "due_at" <= ${new Date()} LIMIT ${REMINDERS_COUNTED_UP_TO}) AS "d")::int AS "due",
                 (SELECT count(*) FROM (SELECT 1 FROM "notification_job" WHERE "status" = 'failed' LIMIT ${REMINDERS_COUNTED_UP_TO}) AS "f")::int AS "failed",
                 (SELECT count(*) FROM (SELECT 1 FROM "notification_job" WHERE "status" = 'abandoned' LIMIT ${REMINDERS_COUNTED_UP_TO}) AS "a")::int AS "abandoned",
                 (SELECT count(*) FROM (SELECT 1 FROM "notification_job" WHERE "status" = 'unknown' LIMIT ${REMINDERS_COUNTED_UP_TO}) AS "u")::int AS "unknown"`;
        return (["due", "failed", "abandoned", "unknown"] as const).map((state): GaugeValue => [this, { state }, row?.[state] ?? 0]);
      });
    },
  });

  // Counted as the passes settle them: the failure alerts (RemindersFailing, RemindersUnknown) take its increase.
  const counted: Partial<Record<keyof RunSummary, number>> = {};
  new Counter({
    name: "oro_api_reminders_settled_total",
    help: "Reminders this replica's passes settled, by outcome: sent, notDelivered (World's per-address result), retried, failed, unknown (a 5xx or no answer after the request left: never sent again), deferred, abandoned (lease run out), released",
    labelNames: ["outcome"] as const,
    registers: [registry],
    collect() {
      const totals = reminders.settledTotals();
      for (const outcome of Object.keys(totals) as (keyof RunSummary)[]) {
        const added = totals[outcome] - (counted[outcome] ?? 0);
        // Every outcome is exported from the first scrape on (0 included), so that increase() sees the first failure.
        this.inc({ outcome }, added);
        counted[outcome] = totals[outcome];
      }
    },
  });
  let passesCounted = 0;
  new Counter({
    name: "oro_api_reminder_passes_total",
    help: "Reminder passes this replica ran to their end, due reminders or none: no increase while workers run means the scheduler is stuck",
    registers: [registry],
    collect() {
      const passes = reminders.completedPasses();
      this.inc(passes - passesCounted);
      passesCounted = passes;
    },
  });
  new Gauge({
    name: "oro_api_reminders_stopped",
    help: "1 while this replica sends no reminders because World refused them (label code: World's refusal, e.g. api_key_inactive, not_allowed); alert RemindersRefusedByWorld",
    labelNames: ["code"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const { stopped } = reminders.sendingState();
      if (stopped) this.set({ code: stopped.code }, 1);
    },
  });
  new Gauge({
    name: "oro_api_reminders_quota_kept",
    help: "1 while this replica keeps World's quota for unverified apps (40 notifications per 4 hours): configured, or learned from World's refusal",
    registers: [registry],
    collect() {
      this.set(reminders.sendingState().keepsQuota ? 1 : 0);
    },
  });
}

/** The chain followers and the indexer as the API sees them. */
function indexerMetrics(registry: Registry, { database: { prisma }, indexer, indexerReadiness }: Services, guarded: Guarded): void {
  new Gauge({
    name: "oro_api_chain_follower_behind_seconds",
    help: "Seconds since each follower of the indexer's events (mints, payouts) last reached the newest one the indexer lists",
    labelNames: ["follower"] as const,
    registers: [registry],
    async collect() {
      await guarded("chain_followers", [this], async () => {
        const rows = await prisma.chainFollower.findMany({ select: { name: true, followedAt: true }, take: 100 });
        return rows.flatMap(({ name, followedAt }): GaugeValue[] =>
          followedAt ? [[this, { follower: name }, Math.max(0, (Date.now() - followedAt.getTime()) / 1000)]] : []);
      });
    },
  });

  // The indexer's own judgement (its GET /health/indexing, through the readiness answer's cache): blocks and seconds
  // an event has waited to be indexed. A quiet chain is not lag: the newest indexed block alone would say it is.
  new Gauge({
    name: "oro_api_indexer_lag_blocks",
    help: "Blocks from the oldest event the indexer has not indexed yet to the chain's head (0 when none waits)",
    registers: [registry],
    async collect() {
      const { lagBlocks } = await indexerReadiness();
      if (lagBlocks === null) this.reset();
      else this.set(lagBlocks);
    },
  });
  new Gauge({
    name: "oro_api_indexer_lag_seconds",
    help: "Seconds the oldest event the indexer has not indexed yet has waited (0 when none waits)",
    registers: [registry],
    async collect() {
      const { lagSeconds } = await indexerReadiness();
      if (lagSeconds === null) this.reset();
      else this.set(lagSeconds);
    },
  });
  new Gauge({
    name: "oro_api_indexer_current",
    help: "1 while the indexer keeps up with the chain (the readiness answer's indexer.state is current), else 0 (behind, backfilling, unreachable)",
    registers: [registry],
    async collect() {
      this.set((await indexerReadiness()).state === "current" ? 1 : 0);
    },
  });
  new Gauge({
    name: "oro_api_indexer_up",
    help: "1 when the indexer answered the API's last scrape-time read (its token stats), else 0",
    registers: [registry],
    async collect() {
      // A flag in itself: 0 when the read fails, never left out.
      const failed = await readIntoGauges([this], async () => {
        await indexer.tokenStats();
        return [[this, {}, 1]];
      }, SCRAPE_DEADLINE_MS);
      if (failed !== undefined) this.set(0);
    },
  });
}

/** The money the API is responsible for: the claim contract's ORO against the vouchers outstanding, the payout wallet's ETH. */
function moneyMetrics(registry: Registry, { database: { prisma }, chain }: Services, guarded: Guarded): void {
  new Gauge({
    name: "oro_api_claim_contract_oro",
    help: "ORO held by the referral claim contract, against the vouchers outstanding (claimable or awaiting payout)",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      await guarded("claim_contract_oro", [this], async () => {
        // The token the claim contract pays in is its own immutable `token`.
        const oro = await chain.publicClient.readContract({ address: chain.claimContract, abi: referralClaimAbi, functionName: "token" });
        const [balance, outstanding] = await Promise.all([
          chain.publicClient.readContract({ address: oro, abi: erc20Abi, functionName: "balanceOf", args: [chain.claimContract] }),
          prisma.referralReward.aggregate({ where: { status: { in: ["claimable", "payout_pending"] } }, _sum: { amountWei: true } }),
        ]);
        return [
          [this, { kind: "balance" }, Number(formatEther(balance))],
          [this, { kind: "outstanding" }, Number(formatEther(BigInt(outstanding._sum.amountWei?.toFixed(0) ?? "0")))],
        ];
      });
    },
  });
  new Gauge({
    name: "oro_api_payout_wallet_eth",
    help: "ETH of the hot wallet that submits automatic payouts (absent when none is configured)",
    registers: [registry],
    async collect() {
      const wallet = chain.payoutWallet;
      if (!wallet) return;
      await guarded("payout_wallet_eth", [this], async () => [[this, {}, Number(formatEther(await chain.publicClient.getBalance({ address: wallet })))]]);
    },
  });
}
/** The newest block Ponder has indexed (its /status: { <chain>: { block: { number } } }). */
function metricsServer(registry: Registry): Server {
  return createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { "content-type": registry.contentType });
        response.end(text);
      },
      (error: unknown) => {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end(String(error));
      },
    );
  });
}

declare module "fastify" {
  interface FastifyInstance {
    metrics: Registry;
  }
}
