/**
 * The phases of one indexer bench run (scripts/bench-backfill.ts): the backfill Ponder indexes from the synthetic
 * chain, its report, then optionally live blocks and a rebuild from Ponder's RPC cache.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, recordBenchFigure, startService, waitForHttpOk, type Service } from "@oro/dev-stack";
import type { BackfillSummary } from "./bench-compare-kinds";
import type { Options } from "./bench-options";
import { diskUse, postgresBackendTicks, type DiskUse } from "./bench-postgres";
import { between, checkTotals, format, getJson, groupUsage, indexedBlock, indexedEvents, mebibytes, metricsDigest, metricsTotals, pause, type StatsAnswer } from "./bench-readings";
import type { SyntheticChain, SyntheticRpcServer } from "./synthetic-chain";

const TARGET_EVENTS_PER_SECOND = 20_000;
const TARGET_LAG_BLOCKS = 2;

/** One bench run: the chain Ponder reads, the database it writes, and the Ponder running now. */
export interface BenchRun {
  options: Options;
  database: "postgres" | "pglite";
  chain: SyntheticChain;
  rpc: SyntheticRpcServer;
  /** Events with handlers in the backfill. */
  events: number;
  /** Ponder's HTTP origin. */
  base: string;
  port: number;
  schema: string;
  /** The PostgreSQL database of the run, and its URL ("" on PGlite). */
  dbName: string;
  databaseUrl: string;
  env: NodeJS.ProcessEnv;
  packageDir: string;
  /** The Ponder running now (the rebuild's replaces the first): the bench stops it whatever happens. */
  ponder: Service | undefined;
}

/** Ponder's environment for the run, as `ponder start` has it in production but for the chain and the database. */
export function ponderEnv(options: Options, port: number, rpcUrl: string, databaseUrl: string, pgliteDir: string): NodeJS.ProcessEnv {
  const logsPerBlock = 2 * options.perBlock;
  return {
    ...process.env,
    PONDER_TELEMETRY_DISABLED: "true",
    PONDER_LOG_LEVEL: process.env.BENCH_PONDER_LOG_LEVEL ?? "info",
    PORT: String(port),
    LOCAL_RPC_URL: rpcUrl,
    INDEXER_CHAIN_ID: "31337",
    DATABASE_URL: databaseUrl,
    PGLITE_DIRECTORY: pgliteDir,
    // Like a provider's cap (Alchemy, QuickNode: 10,000 logs a response): Ponder's normal setting for it.
    INDEXER_GET_LOGS_BLOCK_RANGE: String(Math.max(1, Math.floor(10_000 / logsPerBlock))),
    // World Chain's setting (src/env.ts): Ponder polls the head once a second.
    INDEXER_POLLING_INTERVAL_MS: "1000",
    ...(options.lanes === undefined ? {} : { INDEXER_RPC_LANES: String(options.lanes) }),
    // The synthetic chain never changes, so Ponder's RPC cache stays valid for the rebuild.
    ...(options.rebuild ? { INDEXER_RPC_CACHE: "on" } : {}),
  };
}

/** What the backfill cost, measured while Ponder ran it. */
export interface BackfillMeasures {
  peakRss: number;
  loads: number[];
  ponderCpu: number;
  postgresCpu: number;
  readySeconds: number;
  sourceCpu: NodeJS.CpuUsage;
}

/** The figures' note on the size: the target's, or not (a smoke run's are meaningless). */
function sizeNote(options: Options): string {
  return options.smoke ? " (smoke size: meaningless)" : options.mints === 10_000_000 ? "" : ` (${format(options.mints)} mints, not the target's 10,000,000)`;
}

function startPonder(run: BenchRun): Service {
  const ponderArgs = ["start", "--schema", run.schema, "--port", String(run.port)];
  const options = { cwd: run.packageDir, env: run.env };
  // BENCH_CPU_PROF=<folder>: a V8 CPU profile of Ponder (open it in Chrome's DevTools, or summarise it with
  // scripts/support/cpu-profile.ts).
  const profileDir = process.env.BENCH_CPU_PROF;
  return profileDir
    ? startService("ponder", process.execPath, ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`, path.join(run.packageDir, "node_modules/ponder/dist/esm/bin/ponder.js"), ...ponderArgs], options)
    : startService("ponder", path.join(run.packageDir, "node_modules/.bin/ponder"), ponderArgs, options);
}

/** Starts Ponder and waits until it has indexed the backfill (/ready), sampling its memory, CPU and the load. */
export async function runBackfill(run: BenchRun): Promise<BackfillMeasures> {
  const { base, database, dbName, events } = run;
  const sourceCpuStart = process.cpuUsage();
  const started = performance.now();
  const ponder = startPonder(run);
  run.ponder = ponder;
  let peakRss = 0;
  const loads: number[] = [];
  const postgresTicks = new Map<number, number>();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, groupUsage(ponder.pid).rss);
    if (database === "postgres") postgresBackendTicks(dbName, postgresTicks);
    loads.push(loadavg()[0] ?? 0);
  }, 500);
  // The rate over time, so that a slowdown as the tables grow (a cache cliff) shows where it starts.
  const progressEveryMs = Number(process.env.BENCH_PROGRESS_SECONDS ?? 30) * 1000;
  let last = { at: performance.now(), events: 0 };
  let sampling = false;
  const progress = setInterval(() => {
    if (sampling) return;
    sampling = true;
    void indexedEvents(base)
      .then((indexed) => {
        const now = performance.now();
        if (indexed === undefined || indexed === 0) return;
        const rate = (indexed - last.events) / ((now - last.at) / 1000);
        console.log(
          `  ${((now - started) / 1000).toFixed(0).padStart(5)} s: ${format(indexed).padStart(11)} events indexed (${((100 * indexed) / events).toFixed(1)}%), ${format(rate).padStart(6)} events/s in the last ${((now - last.at) / 1000).toFixed(0)} s, RSS ${(groupUsage(ponder.pid).rss / 2 ** 20).toFixed(0)} MiB, load ${(loadavg()[0] ?? 0).toFixed(1)}`,
        );
        last = { at: now, events: indexed };
      })
      .finally(() => {
        sampling = false;
      });
  }, progressEveryMs);
  let ponderCpu = 0;
  try {
    await waitForHttpOk(`${base}/ready`, 4 * 3_600_000, ponder);
    ponderCpu = groupUsage(ponder.pid).cpuSeconds;
    if (database === "postgres") postgresBackendTicks(dbName, postgresTicks);
  } finally {
    clearInterval(sampler);
    clearInterval(progress);
  }
  const readySeconds = (performance.now() - started) / 1000;
  const sourceCpu = process.cpuUsage(sourceCpuStart);
  const postgresCpu = [...postgresTicks.values()].reduce((sum, ticks) => sum + ticks, 0) / 100;
  return { peakRss, loads, ponderCpu, postgresCpu, readySeconds, sourceCpu };
}

/** Checks that every event was indexed, prints the backfill's figures and records them (and the summary, if asked). */
export async function reportBackfill(run: BenchRun, measures: BackfillMeasures): Promise<void> {
  const { options, database, chain, rpc, events, base, schema } = run;
  const { peakRss, loads, ponderCpu, postgresCpu, readySeconds, sourceCpu } = measures;
  const profile = await metricsDigest(base);
  const output = run.ponder?.output() ?? "";
  const backfillSeconds = between(output, "Started backfill indexing", "Completed backfill indexing across all chains");
  if (backfillSeconds === undefined) throw new Error(`Ponder did not log its backfill:\n${output.slice(-3_000)}`);
  const rpcSeconds = between(output, "Started fetching backfill JSON-RPC data", "Finished fetching backfill JSON-RPC data");

  const stats = await getJson<StatsAnswer>(`${base}/stats`);
  const problems = checkTotals(chain, stats, options.mints);
  let disk: DiskUse | undefined;
  if (database === "postgres") {
    const client = new pg.Client({ connectionString: run.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".mint`);
    disk = await diskUse(client, schema);
    await client.end();
    if (rows[0]?.n !== options.mints) problems.push(`${rows[0]?.n} mint rows, the chain has ${options.mints}`);
  }
  if (problems.length > 0) throw new Error(`the backfill did not index every event: ${problems.join("; ")}`);

  const rate = events / backfillSeconds;
  const meanLoad = loads.reduce((sum, value) => sum + value, 0) / Math.max(1, loads.length);
  const summaryFile = process.env.BENCH_SUMMARY_FILE;
  if (summaryFile) {
    const totals = await metricsTotals(base);
    const summary: BackfillSummary = {
      v4Every: options.v4Every,
      humans: chain.humansForMints(options.mints),
      mints: options.mints,
      events,
      backfillSeconds,
      cpuSeconds: ponderCpu + (database === "postgres" ? postgresCpu : 0),
      ...totals,
      peakRss,
      meanLoad,
    };
    writeFileSync(summaryFile, JSON.stringify(summary));
  }
  console.log(`\nBackfill: every event indexed (${format(stats.mints)} mints, ${format(stats.humans)} humans, ${format(stats.holders)} holders; totals checked against the chain)`);
  console.log("| figure | measured | target (TARGETS.md) |");
  console.log("|---|---|---|");
  console.log(`| events/s, first to last event indexed (Ponder's backfill) | **${format(rate)}** (${format(events)} events in ${backfillSeconds.toFixed(1)} s; ${format(options.mints / backfillSeconds)} mints/s) | ≥ ${format(TARGET_EVENTS_PER_SECOND)} over 10,000,000 mints by 2,000,000 humans |`);
  console.log(`| of which fetching JSON-RPC data (overlaps indexing) | ${rpcSeconds?.toFixed(1) ?? "?"} s | |`);
  console.log(`| ponder start to /ready | ${readySeconds.toFixed(1)} s | |`);
  console.log(`| peak RSS of the Ponder process | ${(peakRss / 2 ** 20).toFixed(0)} MiB | bounded |`);
  console.log(`| CPU: Ponder / its PostgreSQL backends / the chain source | ${ponderCpu.toFixed(0)} s / ${database === "postgres" ? `${postgresCpu.toFixed(0)} s` : "(in Ponder)"} / ${((sourceCpu.user + sourceCpu.system) / 1e6).toFixed(0)} s | the source is not the bottleneck |`);
  console.log(`| events per CPU-second of Ponder and its database (what a machine of its own would approach per core) | ${format(events / (ponderCpu + (database === "postgres" ? postgresCpu : 0)))} | |`);
  console.log(`| load average (1 min) during the backfill | mean ${meanLoad.toFixed(1)}, max ${Math.max(...loads, 0).toFixed(1)} on ${cpus().length} cores | |`);
  if (disk) {
    const perMint = (bytes: number) => `${format(bytes / options.mints)} B a mint`;
    console.log(`| disk: Ponder's RPC cache (ponder_sync) / the indexed tables | ${mebibytes(disk.rpcCache)} (${perMint(disk.rpcCache)}) / ${mebibytes(disk.tables)} (${perMint(disk.tables)}) | |`);
  }
  console.log("\nJSON-RPC requests Ponder made:");
  for (const [method, entry] of [...rpc.stats.requests].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`  ${method}: ${format(entry.count)} (answered in ${(entry.ms / entry.count).toFixed(2)} ms each, ${(entry.bytes / 2 ** 20).toFixed(0)} MiB in all)`);
  }
  console.log("\nWhere Ponder's time went (its /metrics: histogram totals, which overlap; then counters):");
  for (const line of profile) console.log(line);
  for (const [method, count] of rpc.stats.unanswered) console.log(`  ${method}: ${count}, NOT SERVED`);
  if (rpc.stats.oversizedLogResponses > 0) console.log(`  (${rpc.stats.oversizedLogResponses} eth_getLogs answers held more than 10,000 logs)`);

  const size = sizeNote(options);
  recordBenchFigure({ bench: "@oro/indexer", figure: `backfill events/s on ${database}${size}`, measured: `${format(rate)} events/s`, target: `≥ ${format(TARGET_EVENTS_PER_SECOND)}`, met: rate >= TARGET_EVENTS_PER_SECOND });
  recordBenchFigure({ bench: "@oro/indexer", figure: "backfill peak RSS of Ponder", measured: `${(peakRss / 2 ** 20).toFixed(0)} MiB`, target: "bounded", met: null });
}

/** Live blocks every 2 s for --live seconds: how far behind the head Ponder stays, and that it indexes every mint. */
export async function runLive(run: BenchRun, ponder: Service): Promise<void> {
  const { options, chain, base } = run;
  const liveStartMints = options.mints;
  console.log(`\nLive: a block every 2 s with ${format(options.livePerBlock)} mints, for ${options.liveSeconds} s (Ponder polls every 1 s)...`);
  const lags: number[] = [];
  const latencies: number[] = [];
  const liveStartHead = chain.head;
  let lastSeen = chain.head;
  chain.startLive();
  const liveEnd = performance.now() + options.liveSeconds * 1000;
  let livePeakRss = 0;
  while (performance.now() < liveEnd) {
    await pause(100);
    const indexed = await indexedBlock(base);
    if (indexed === undefined) continue;
    // /status names the newest block that carried events: the empty blocks before the first live one count
    // as indexed (Ponder was ready), every live block carries mints.
    lags.push(chain.head - Math.max(indexed, liveStartHead));
    livePeakRss = Math.max(livePeakRss, groupUsage(ponder.pid).rss);
    for (let block = lastSeen + 1; block <= indexed; block++) {
      const producedAt = chain.producedAt.get(block);
      if (producedAt !== undefined) latencies.push(performance.now() - producedAt);
    }
    lastSeen = Math.max(lastSeen, indexed);
  }
  chain.stopLive();
  const liveBlocks = chain.head - (chain.lastBackfillMintBlock + 40);
  const liveMints = liveBlocks * options.livePerBlock;
  // Let it catch up, then check every live mint was indexed too.
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline && (await indexedBlock(base)) !== chain.head) await pause(200);
  const liveStats = await getJson<StatsAnswer>(`${base}/stats`);
  const liveProblems = checkTotals(chain, liveStats, liveStartMints + liveMints);
  if (liveProblems.length > 0) throw new Error(`live indexing missed events: ${liveProblems.join("; ")}`);
  const maxLag = Math.max(...lags);
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
  console.log(`| live figure | measured | target |`);
  console.log("|---|---|---|");
  console.log(`| head lag (blocks behind the newest), sampled every 100 ms | max **${maxLag}**, median ${[...lags].sort((a, b) => a - b)[Math.floor(lags.length / 2)]} | ≤ ${TARGET_LAG_BLOCKS} |`);
  console.log(`| a block's time from produced to indexed (${sorted.length} blocks) | median ${(pct(0.5) / 1000).toFixed(2)} s, max ${((sorted.at(-1) ?? Number.NaN) / 1000).toFixed(2)} s | |`);
  console.log(`| live blocks, mints | ${liveBlocks}, ${format(liveMints)} (every one indexed) | |`);
  console.log(`| peak RSS of Ponder while live | ${(livePeakRss / 2 ** 20).toFixed(0)} MiB | |`);
  console.log(`| load average (1 min) at the end | ${(loadavg()[0] ?? 0).toFixed(1)} | |`);
  recordBenchFigure({ bench: "@oro/indexer", figure: `live head lag, 2 s blocks of ${format(options.livePerBlock)} mints${options.smoke ? " (smoke size)" : ""}`, measured: `max ${maxLag} blocks`, target: `≤ ${TARGET_LAG_BLOCKS} blocks`, met: maxLag <= TARGET_LAG_BLOCKS });
}

/**
 * A new build indexes into a new schema (README) and, with the RPC cache on, reads the chain's data from Ponder's sync
 * tables instead of the RPC. The first Ponder stops first, so the figures are the rebuild's; its totals must be the
 * first run's.
 */
export async function runRebuild(run: BenchRun, first: Service): Promise<void> {
  const { rpc, schema, packageDir, env } = run;
  const served = await getJson<StatsAnswer>(`${run.base}/stats`);
  await first.stop();
  const requestsBefore = new Map([...rpc.stats.requests].map(([method, entry]) => [method, entry.count]));
  const rebuildPort = await freePort();
  const rebuildBase = `http://127.0.0.1:${rebuildPort}`;
  const rebuild = startService("ponder", path.join(packageDir, "node_modules/.bin/ponder"), ["start", "--schema", `${schema}_next`, "--port", String(rebuildPort)], {
    cwd: packageDir,
    env: { ...env, PORT: String(rebuildPort) },
  });
  run.ponder = rebuild;
  let rebuildPeakRss = 0;
  const rebuildSampler = setInterval(() => (rebuildPeakRss = Math.max(rebuildPeakRss, groupUsage(rebuild.pid).rss)), 500);
  try {
    await waitForHttpOk(`${rebuildBase}/ready`, 4 * 3_600_000, rebuild);
  } finally {
    clearInterval(rebuildSampler);
  }
  const rebuildCpu = groupUsage(rebuild.pid).cpuSeconds;
  const rebuildEvents = (await indexedEvents(rebuildBase)) ?? 0;
  const rebuildSeconds = between(rebuild.output(), "Started backfill indexing", "Completed backfill indexing across all chains");
  if (rebuildSeconds === undefined) throw new Error(`Ponder did not log the rebuild's backfill:\n${rebuild.output().slice(-3_000)}`);
  // Blocks newer than the finality depth (the live ones) are indexed right after /ready, as Ponder follows the head.
  const differences = (answer: StatsAnswer) => (["mints", "humans", "holders", "totalSupply"] as const).filter((field) => String(answer[field]) !== String(served[field]));
  let rebuilt = await getJson<StatsAnswer>(`${rebuildBase}/stats`);
  for (const deadline = performance.now() + 120_000; differences(rebuilt).length > 0 && performance.now() < deadline; ) {
    await pause(200);
    rebuilt = await getJson<StatsAnswer>(`${rebuildBase}/stats`);
  }
  const differs = differences(rebuilt);
  if (differs.length > 0) throw new Error(`the rebuild's totals differ from the first run's: ${JSON.stringify(rebuilt)} against ${JSON.stringify(served)}`);
  const rebuildRate = rebuildEvents / rebuildSeconds;
  const asked = [...rpc.stats.requests]
    .map(([method, entry]) => [method, entry.count - (requestsBefore.get(method) ?? 0)] as const)
    .filter(([, count]) => count > 0)
    .map(([method, count]) => `${method} ${format(count)}`);
  console.log(`\nRebuild from Ponder's RPC cache into a new schema: the same totals as the first run (${format(rebuilt.mints)} mints)`);
  console.log("| rebuild figure | measured |");
  console.log("|---|---|");
  console.log(`| events/s, first to last event indexed | **${format(rebuildRate)}** (${format(rebuildEvents)} events in ${rebuildSeconds.toFixed(1)} s) |`);
  console.log(`| JSON-RPC requests it made | ${asked.join(", ") || "none"} |`);
  console.log(`| CPU of Ponder; peak RSS | ${rebuildCpu.toFixed(0)} s; ${(rebuildPeakRss / 2 ** 20).toFixed(0)} MiB |`);
  console.log(`| load average (1 min) at the end | ${(loadavg()[0] ?? 0).toFixed(1)} |`);
  recordBenchFigure({ bench: "@oro/indexer", figure: `rebuild from Ponder's RPC cache, events/s on ${run.database}${sizeNote(run.options)}`, measured: `${format(rebuildRate)} events/s`, target: "—", met: null });
}
