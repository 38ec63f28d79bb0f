/**
 * Indexer benchmark at production size: `pnpm --filter @oro/indexer bench [options]`.
 *
 *   --mints N (or --events N)  mint events to backfill (default 1,000,000; the target is 10,000,000)
 *   --humans H                 humans who make them, each once a round (default N / 5)
 *   --per-block K              mints per block in the backfill (default 100)
 *   --v4-every K               every K-th human is a World ID 4.0 human (default 10; 0: none)
 *   --live [S]                 after the backfill, S seconds (default 60) of live blocks every 2 s
 *   --live-per-block K         mints in each live block (default 1,000)
 *   --database postgres|pglite (default: PostgreSQL when one answers, else PGlite)
 *   --lanes L                  RPC lanes (INDEXER_RPC_LANES; default: the config's, 8 on the local chain id)
 *   --rebuild                  then index everything again into a new schema from Ponder's RPC cache, as a new
 *                              build does in production (the first run records the cache)
 *   --smoke                    a tiny size with a few live blocks, for the test suite (figures meaningless)
 *   --compare-kinds            backfills the same size twice, every human on World ID 3.0, then every human on 4.0
 *                              (each its own Ponder and database), and prints the two side by side: 4.0 humans must
 *                              be indexed at the throughput 3.0 humans get (TARGETS.md); --rounds R sets mints = R × humans
 *
 * The chain is the bench's own JSON-RPC server (scripts/support/synthetic-chain.ts) answering Ponder from blocks and
 * logs computed on request, so the figures are the indexer's, not a node's. Ponder runs as `ponder start` does in
 * production, on a database of its own (PostgreSQL: a database <BENCH_PG_DATABASE_PREFIX, default
 * oro_indexer_bench>_* created and dropped here, with BENCH_PG_ADMIN_URL, default
 * postgresql://oro:oro@127.0.0.1:5432/postgres). It prints events/s from Ponder's first to last indexed event, the
 * peak RSS of the Ponder process, the load average, the live head lag, and checks that every event was indexed (the
 * totals Ponder serves against the chain's).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort, processesInGroup, recordBenchFigure, startService, waitForHttpOk, type Service } from "@oro/dev-stack";
import { FIRST_MINT_BLOCK, SyntheticChain, startSyntheticRpc, type SyntheticRpcServer } from "./support/synthetic-chain";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TARGET_EVENTS_PER_SECOND = 20_000;
const TARGET_LAG_BLOCKS = 2;
const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgresql://oro:oro@127.0.0.1:5432/postgres";
// A shared PostgreSQL gives each user its own database names.
const DATABASE_PREFIX = process.env.BENCH_PG_DATABASE_PREFIX ?? "oro_indexer_bench";
if (!/^[a-z][a-z0-9_]{0,39}$/.test(DATABASE_PREFIX)) throw new Error(`BENCH_PG_DATABASE_PREFIX must be a-z, 0-9 and _, got "${DATABASE_PREFIX}"`);

interface Options {
  mints: number;
  humans: number;
  perBlock: number;
  v4Every: number;
  liveSeconds: number;
  livePerBlock: number;
  database: "postgres" | "pglite" | undefined;
  lanes: number | undefined;
  rebuild: boolean;
  smoke: boolean;
  compareKinds: boolean;
  rounds: number | undefined;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { mints: 1_000_000, humans: 0, perBlock: 100, v4Every: 10, liveSeconds: 0, livePerBlock: 1_000, database: undefined, lanes: undefined, rebuild: false, smoke: false, compareKinds: false, rounds: undefined };
  const integer = (flag: string, raw: string | undefined, min: number): number => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`${flag} takes an integer ≥ ${min}, got "${raw}"`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") continue;
    if (arg === "--mints" || arg === "--events") options.mints = integer(arg, argv[++i], 1);
    else if (arg === "--humans") options.humans = integer(arg, argv[++i], 1);
    else if (arg === "--per-block") options.perBlock = integer(arg, argv[++i], 1);
    else if (arg === "--v4-every") options.v4Every = integer(arg, argv[++i], 0);
    else if (arg === "--live-per-block") options.livePerBlock = integer(arg, argv[++i], 1);
    else if (arg === "--lanes") options.lanes = integer(arg, argv[++i], 1);
    else if (arg === "--rebuild") options.rebuild = true;
    else if (arg === "--compare-kinds") options.compareKinds = true;
    else if (arg === "--rounds") options.rounds = integer(arg, argv[++i], 1);
    else if (arg === "--live") options.liveSeconds = argv[i + 1] !== undefined && /^\d+$/.test(argv[i + 1] ?? "") ? integer(arg, argv[++i], 1) : 60;
    else if (arg === "--database") {
      const value = argv[++i];
      if (value !== "postgres" && value !== "pglite") throw new Error(`--database takes postgres or pglite, got "${value}"`);
      options.database = value;
    } else if (arg === "--smoke") {
      Object.assign(options, { smoke: true, mints: 3_000, humans: 500, perBlock: 50, liveSeconds: 8, livePerBlock: 100, rebuild: true });
    } else throw new Error(`unknown option "${arg}" (see the comment at the top of scripts/bench-backfill.ts)`);
  }
  if (options.rounds !== undefined) {
    if (options.humans === 0) throw new Error("--rounds needs --humans");
    options.mints = options.rounds * options.humans;
  }
  if (options.humans === 0) options.humans = Math.max(1, Math.floor(options.mints / 5));
  if (options.perBlock > options.humans) options.perBlock = options.humans;
  return options;
}

const format = (value: number) => Math.round(value).toLocaleString("en-US");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Drops the bench's database whoever is still on it. `DROP DATABASE … WITH (FORCE)` is refused (42501, "must be a
 * member of the role whose process is being terminated") while an autovacuum worker, a superuser's process, works on
 * it, which a backfill's many writes start: so this role's own connections are ended first, then a plain DROP DATABASE
 * stops the autovacuum workers itself (and waits up to 5 s for the ended connections to go).
 */
async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND usename = current_user AND pid <> pg_backend_pid()", [name]);
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (error) {
        // 55006: a connection of this role came back in between (a pool reconnecting): end it again.
        if ((error as { code?: string }).code !== "55006" || attempt >= 5) throw error;
      }
    }
  } finally {
    await client.end();
  }
}

/** RSS (bytes) and CPU seconds of every process in a group, from /proc. */
function groupUsage(pgid: number): { rss: number; cpuSeconds: number } {
  let rss = 0;
  let ticks = 0;
  for (const pid of processesInGroup(pgid) ?? [pgid]) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return { rss, cpuSeconds: ticks / 100 };
}

/** Seconds between the log lines containing `from` and `to` (Ponder prefixes each with HH:MM:SS.mmm). */
function between(output: string, from: string, to: string): number | undefined {
  const clock = (text: string) => {
    const line = output.split("\n").find((candidate) => candidate.includes(text));
    const match = line === undefined ? null : /(\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line);
    if (!match) return undefined;
    const [, h, m, s, ms] = match;
    return Number(h) * 3_600 + Number(m) * 60 + Number(s) + Number(ms) / 1_000;
  };
  const start = clock(from);
  const end = clock(to);
  if (start === undefined || end === undefined) return undefined;
  return (end - start + 86_400) % 86_400;
}

/** Where Ponder's time went, from its Prometheus /metrics: each histogram's total (ms) and count, largest first. */
async function metricsDigest(base: string): Promise<string[]> {
  const text = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.text(), () => "");
  const sums = new Map<string, { sum: number; count: number }>();
  const counters: string[] = [];
  for (const line of text.split("\n")) {
    const match = /^(ponder_[a-z_]+?)(_sum|_count)?(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!match) continue;
    const [, name, suffix, labels = "", raw] = match;
    const key = `${name}${labels.replace(/,?chain="[^"]*"/, "").replace("{,", "{").replace("{}", "")}`;
    if (suffix === "_sum" || suffix === "_count") {
      const entry = sums.get(key) ?? { sum: 0, count: 0 };
      if (suffix === "_sum") entry.sum += Number(raw);
      else entry.count += Number(raw);
      sums.set(key, entry);
    } else if (name === "ponder_indexing_cache_requests_total" || name === "ponder_indexing_rpc_requests_total" || name === "ponder_postgres_query_total") {
      if (Number(raw) > 0) counters.push(`  ${key}: ${format(Number(raw))}`);
    }
  }
  const top = [...sums].filter(([, entry]) => entry.sum > 0).sort((a, b) => b[1].sum - a[1].sum).slice(0, 18);
  // A miss is a lookup Ponder could not predict in a table that no longer fits its cache: one query per event.
  const misses = counters
    .map((line) => /table="([^"]+)",type="miss"\}: ([\d,]+)/.exec(line))
    .filter((match) => match !== null)
    .map((match) => `  WARNING: ${match[2]} lookups in ${match[1]} missed Ponder's cache, one database query each (README: the cache cliff)`);
  return [...top.map(([key, entry]) => `  ${key}: ${(entry.sum / 1000).toFixed(1)} s over ${format(entry.count)}`), ...counters, ...misses];
}

/** Handler time (seconds, all events) and lookups that missed Ponder's cache, from its /metrics. */
async function metricsTotals(base: string): Promise<{ handlerSeconds: number; misses: number }> {
  const text = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.text(), () => "");
  let handlerMs = 0;
  let misses = 0;
  for (const match of text.matchAll(/^ponder_indexing_function_duration_sum\{[^}]*\} ([0-9.e+-]+)$/gm)) handlerMs += Number(match[1]);
  for (const match of text.matchAll(/^ponder_indexing_cache_requests_total\{[^}]*type="miss"[^}]*\} ([0-9.e+-]+)$/gm)) misses += Number(match[1]);
  return { handlerSeconds: handlerMs / 1000, misses };
}

/** What one backfill run hands to --compare-kinds (BENCH_SUMMARY_FILE). */
interface BackfillSummary {
  v4Every: number;
  humans: number;
  mints: number;
  events: number;
  backfillSeconds: number;
  cpuSeconds: number;
  handlerSeconds: number;
  misses: number;
  peakRss: number;
  meanLoad: number;
}

/** Events Ponder has indexed so far (the sum of its ponder_indexing_completed_events gauge), or undefined. */
async function indexedEvents(base: string): Promise<number | undefined> {
  const text = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.text(), () => undefined);
  if (text === undefined) return undefined;
  let total = 0;
  for (const match of text.matchAll(/^ponder_indexing_completed_events\{[^}]*\} ([0-9.e+-]+)$/gm)) total += Number(match[1]);
  return total;
}

/** CPU seconds of the PostgreSQL backends serving a database (their title names it), summed over their lives. */
function postgresBackendTicks(dbName: string, seen: Map<number, number>): void {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.startsWith("postgres:") || !cmdline.includes(` ${dbName} `)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      seen.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone
    }
  }
}

interface StatsAnswer {
  mints: number;
  humans: number;
  holders: number;
  totalSupply: string;
}

interface DiskUse {
  /** Ponder's sync tables: every block, transaction and log it fetched. */
  rpcCache: number;
  /** The schema the handlers write. */
  tables: number;
}

const mebibytes = (bytes: number) => `${format(bytes / 2 ** 20)} MiB`;

/** What the indexer's data takes on disk (tables with their indexes and TOAST). */
async function diskUse(client: pg.Client, schema: string): Promise<DiskUse> {
  const { rows } = await client.query<{ schema: string; bytes: string }>(
    `SELECT n.nspname AS schema, sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname IN ('ponder_sync', $1) GROUP BY 1`,
    [schema],
  );
  const of = (name: string) => Number(rows.find((row) => row.schema === name)?.bytes ?? 0);
  return { rpcCache: of("ponder_sync"), tables: of(schema) };
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

async function indexedBlock(base: string): Promise<number | undefined> {
  try {
    const status = await getJson<Record<string, { block?: { number: number } }>>(`${base}/status`);
    return Object.values(status)[0]?.block?.number;
  } catch {
    return undefined;
  }
}

function checkTotals(chain: SyntheticChain, stats: StatsAnswer, mints: number): string[] {
  const humans = chain.humansForMints(mints);
  const problems: string[] = [];
  if (stats.mints !== mints) problems.push(`mints ${stats.mints}, the chain has ${mints}`);
  if (stats.humans !== humans) problems.push(`humans ${stats.humans}, the chain has ${humans}`);
  if (stats.holders !== humans) problems.push(`holders ${stats.holders}, the chain has ${humans}`);
  if (BigInt(stats.totalSupply) !== BigInt(mints) * 10n ** 18n) problems.push(`total supply ${stats.totalSupply}, the chain has ${BigInt(mints) * 10n ** 18n}`);
  return problems;
}

/**
 * --compare-kinds: the same backfill with every human on World ID 3.0, then every human on 4.0, each a run of this
 * script of its own, printed side by side. Per mint, a 4.0 human's first mint is three events (the enrolment), a
 * later one two, as for 3.0; what must match is the throughput in mints and the cost of a mint.
 */
async function compareKinds(argv: string[]): Promise<void> {
  const passOn = argv.filter((arg) => arg !== "--compare-kinds");
  const runs: { kind: string; summary: BackfillSummary }[] = [];
  for (const [kind, v4Every] of [["3.0", "0"], ["4.0", "1"]] as const) {
    const summaryFile = path.join(tmpdir(), `oro-bench-${process.pid}-${v4Every}.json`);
    console.log(`\n=== every human on World ID ${kind} ===`);
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), ...passOn, "--v4-every", v4Every], {
        cwd: packageDir,
        env: { ...process.env, BENCH_SUMMARY_FILE: summaryFile },
        stdio: "inherit",
      });
      child.on("exit", resolve);
    });
    if (code !== 0) throw new Error(`the World ID ${kind} run failed (exit ${code})`);
    runs.push({ kind, summary: JSON.parse(readFileSync(summaryFile, "utf8")) as BackfillSummary });
    rmSync(summaryFile, { force: true });
  }
  const perMint = (seconds: number, mints: number) => `${format((seconds / mints) * 1e6)} µs`;
  console.log("\nWorld ID 3.0 and 4.0 humans side by side (the same chain but for the kind of human; TARGETS.md: the same throughput up to 2,000,000 humans)");
  console.log("| humans | kind | mints | events | backfill | **mints/s** | events/s | CPU (Ponder + PostgreSQL) per mint | handler time per mint | lookups that missed the cache | peak RSS | load (1 min) mean |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const { kind, summary } of runs) {
    const { humans, mints, events, backfillSeconds, cpuSeconds, handlerSeconds, misses, peakRss, meanLoad } = summary;
    console.log(
      `| ${format(humans)} | ${kind} | ${format(mints)} | ${format(events)} | ${backfillSeconds.toFixed(1)} s | **${format(mints / backfillSeconds)}** | ${format(events / backfillSeconds)} | ${perMint(cpuSeconds, mints)} | ${perMint(handlerSeconds, mints)} | ${format(misses)} | ${(peakRss / 2 ** 20).toFixed(0)} MiB | ${meanLoad.toFixed(1)} |`,
    );
  }
  const [v3, v4] = runs.map((run) => run.summary) as [BackfillSummary, BackfillSummary];
  const throughput = v4.mints / v4.backfillSeconds / (v3.mints / v3.backfillSeconds);
  const cost = v4.cpuSeconds / v4.mints / (v3.cpuSeconds / v3.mints);
  console.log(`\n4.0 against 3.0: mints/s ×${throughput.toFixed(2)}, CPU per mint ×${cost.toFixed(2)}, lookups that missed the cache ${format(v4.misses)} against ${format(v3.misses)} (the load decides mints/s on a shared machine; CPU per mint does not depend on it)`);
  recordBenchFigure({
    bench: "@oro/indexer",
    figure: `4.0 against 3.0 humans at ${format(v3.humans)} humans: mints/s, CPU per mint`,
    measured: `×${throughput.toFixed(2)}, ×${cost.toFixed(2)}`,
    target: "the same throughput",
    met: null,
  });
}

async function main(): Promise<void> {
  if (process.argv.includes("--compare-kinds")) return compareKinds(process.argv.slice(2));
  const options = parseOptions(process.argv.slice(2));
  const database = options.database ?? ((await postgresAvailable()) ? "postgres" : "pglite");
  const chain = new SyntheticChain({
    mints: options.mints,
    humans: options.humans,
    perBlock: options.perBlock,
    v4Every: options.v4Every,
    tail: 40,
    livePerBlock: options.livePerBlock,
    liveIntervalMs: 2_000,
    blockTime: 2,
  });
  chain.selfCheck();
  const events = chain.handledEventsForMints(options.mints);
  const logsPerBlock = 2 * options.perBlock;
  const blocks = chain.lastBackfillMintBlock - FIRST_MINT_BLOCK + 1;
  console.log(
    `Chain source: ${format(options.mints)} mints by ${format(chain.humansForMints(options.mints))} humans (every ${options.v4Every || "—"}th a World ID 4.0 human), ${options.perBlock} a block over ${format(blocks)} blocks: ${format(events)} events with handlers; ${database === "postgres" ? "PostgreSQL" : "PGlite"}`,
  );

  const rpc: SyntheticRpcServer = await startSyntheticRpc(chain);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const schema = `bench_${Date.now().toString(36)}`;
  const dbName = `${DATABASE_PREFIX}_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "oro-bench-pglite-"));
  let ponder: Service | undefined;
  let failed = false;
  try {
    if (database === "postgres") await adminQuery(`CREATE DATABASE ${dbName}`);
    const databaseUrl = database === "postgres" ? ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`) : "";
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PONDER_TELEMETRY_DISABLED: "true",
      PONDER_LOG_LEVEL: process.env.BENCH_PONDER_LOG_LEVEL ?? "info",
      PORT: String(port),
      LOCAL_RPC_URL: rpc.url,
      INDEXER_CHAIN_ID: "31337",
      DATABASE_URL: databaseUrl,
      PGLITE_DIRECTORY: dataDir,
      // Like a provider's cap (Alchemy, QuickNode: 10,000 logs a response): Ponder's normal setting for it.
      INDEXER_GET_LOGS_BLOCK_RANGE: String(Math.max(1, Math.floor(10_000 / logsPerBlock))),
      // World Chain's setting (src/env.ts): Ponder polls the head once a second.
      INDEXER_POLLING_INTERVAL_MS: "1000",
      ...(options.lanes === undefined ? {} : { INDEXER_RPC_LANES: String(options.lanes) }),
      // The synthetic chain never changes, so Ponder's RPC cache stays valid for the rebuild.
      ...(options.rebuild ? { INDEXER_RPC_CACHE: "on" } : {}),
    };
    const sourceCpuStart = process.cpuUsage();
    const started = performance.now();
    const ponderArgs = ["start", "--schema", schema, "--port", String(port)];
    // BENCH_CPU_PROF=<folder>: a V8 CPU profile of Ponder (open it in Chrome's DevTools, or summarise it with
    // scripts/support/cpu-profile.ts).
    const profileDir = process.env.BENCH_CPU_PROF;
    ponder = profileDir
      ? startService("ponder", process.execPath, ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`, path.join(packageDir, "node_modules/ponder/dist/esm/bin/ponder.js"), ...ponderArgs], { cwd: packageDir, env })
      : startService("ponder", path.join(packageDir, "node_modules/.bin/ponder"), ponderArgs, { cwd: packageDir, env });
    let peakRss = 0;
    const loads: number[] = [];
    const postgresTicks = new Map<number, number>();
    const sampler = setInterval(() => {
      if (ponder) peakRss = Math.max(peakRss, groupUsage(ponder.pid).rss);
      if (database === "postgres") postgresBackendTicks(dbName, postgresTicks);
      loads.push(loadavg()[0] ?? 0);
    }, 500);
    // The rate over time, so that a slowdown as the tables grow (a cache cliff) shows where it starts.
    const progressEveryMs = Number(process.env.BENCH_PROGRESS_SECONDS ?? 30) * 1000;
    let last = { at: performance.now(), events: 0 };
    let sampling = false;
    const progress = setInterval(() => {
      if (sampling || !ponder) return;
      sampling = true;
      const service = ponder;
      void indexedEvents(base)
        .then((indexed) => {
          const now = performance.now();
          if (indexed === undefined || indexed === 0) return;
          const rate = (indexed - last.events) / ((now - last.at) / 1000);
          console.log(
            `  ${((now - started) / 1000).toFixed(0).padStart(5)} s: ${format(indexed).padStart(11)} events indexed (${((100 * indexed) / events).toFixed(1)}%), ${format(rate).padStart(6)} events/s in the last ${((now - last.at) / 1000).toFixed(0)} s, RSS ${(groupUsage(service.pid).rss / 2 ** 20).toFixed(0)} MiB, load ${(loadavg()[0] ?? 0).toFixed(1)}`,
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
    const profile = await metricsDigest(base);
    const output = ponder.output();
    const backfillSeconds = between(output, "Started backfill indexing", "Completed backfill indexing across all chains");
    if (backfillSeconds === undefined) throw new Error(`Ponder did not log its backfill:\n${output.slice(-3_000)}`);
    const rpcSeconds = between(output, "Started fetching backfill JSON-RPC data", "Finished fetching backfill JSON-RPC data");

    const stats = await getJson<StatsAnswer>(`${base}/stats`);
    const problems = checkTotals(chain, stats, options.mints);
    let disk: DiskUse | undefined;
    if (database === "postgres") {
      const client = new pg.Client({ connectionString: databaseUrl });
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

    const size = options.smoke ? " (smoke size: meaningless)" : options.mints === 10_000_000 ? "" : ` (${format(options.mints)} mints, not the target's 10,000,000)`;
    recordBenchFigure({ bench: "@oro/indexer", figure: `backfill events/s on ${database}${size}`, measured: `${format(rate)} events/s`, target: `≥ ${format(TARGET_EVENTS_PER_SECOND)}`, met: rate >= TARGET_EVENTS_PER_SECOND });
    recordBenchFigure({ bench: "@oro/indexer", figure: "backfill peak RSS of Ponder", measured: `${(peakRss / 2 ** 20).toFixed(0)} MiB`, target: "bounded", met: null });

    if (options.liveSeconds > 0) {
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
    if (options.rebuild) {
      // A new build indexes into a new schema (README) and, with the RPC cache on, reads the chain's data from
      // Ponder's sync tables instead of the RPC. The first Ponder stops first, so the figures are the rebuild's.
      const served = await getJson<StatsAnswer>(`${base}/stats`);
      await ponder.stop();
      const requestsBefore = new Map([...rpc.stats.requests].map(([method, entry]) => [method, entry.count]));
      const rebuildPort = await freePort();
      const rebuildBase = `http://127.0.0.1:${rebuildPort}`;
      const rebuild = startService("ponder", path.join(packageDir, "node_modules/.bin/ponder"), ["start", "--schema", `${schema}_next`, "--port", String(rebuildPort)], {
        cwd: packageDir,
        env: { ...env, PORT: String(rebuildPort) },
      });
      ponder = rebuild;
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
      recordBenchFigure({ bench: "@oro/indexer", figure: `rebuild from Ponder's RPC cache, events/s on ${database}${size}`, measured: `${format(rebuildRate)} events/s`, target: "—", met: null });
    }
  } catch (error) {
    failed = true;
    if (ponder && process.env.BENCH_DEBUG) console.error(ponder.output().slice(-6_000));
    throw error;
  } finally {
    chain.stopLive();
    await ponder?.stop();
    await rpc.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (database === "postgres") {
      await dropDatabase(dbName).catch((error: unknown) => {
        console.error(`could not drop the database ${dbName}: ${String(error)}`);
        failed = true;
      });
    }
    if (failed) process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
