// pnpm --filter @oro/api bench (its third part) [--sizes 10000,100000,1000000,2000000] [--only TEXT] [--profile DIR] [--smoke]
// The hot routes' latency as the tables grow (shared/TARGETS.md, "API"): at each size a fresh PostgreSQL database is
// seeded with that many users, half as many payable referrals (two claimable rewards each) and one referrer with a
// long history (50,000 invites at production size: 2,000,000 users, 1,000,000 referrals), then each hot route runs
// at 50 connections, cached and uncached, and the p99 of every size is printed side by side. Flat is the goal.
// Each route runs twice: saturated (as fast as the 50 connections go: its p99 is then mostly queueing on the machine's
// cores, so it is printed but the verdict is the API's CPU per request, flat from the smallest size to the largest) and
// at the production rate (the peak request rate two million humans a day would send to that route, below), whose
// verdict is the p99 at the largest size measured (the production size by default), as the figure it names.
// The indexer is the benchmarks' fake, in a process of its own (its own size is the indexer's benchmark).
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { loadavg } from "node:os";
import { addresses, BENCH_REFERENCES, CHAIN_IDS } from "@oro/clients";
import { recordBenchFigure } from "@oro/dev-stack";
import { createScratchDatabase } from "../src/db/scratch.js";
import { redisServerBinary, startRedisServer } from "./redis-server.js";
import pg from "pg";
import {
  addressOf,
  backlogCursor,
  benchedApiEnv,
  cpuMicrosOf,
  databasePrefix,
  type FollowedBacklog,
  freePort,
  type Measure,
  measureRoute,
  postgresServerUrl,
  seedPendingReferrals,
  seedReferrals,
  start,
  startFakeIndexer,
  tokenOf,
  waitForOk,
  stop,
} from "./bench-support.js";

const smoke = process.argv.includes("--smoke");
const sizesIndex = process.argv.indexOf("--sizes");
const SIZES = (sizesIndex >= 0 ? (process.argv[sizesIndex + 1] ?? "") : smoke ? "1000,2000" : "10000,100000,1000000,2000000")
  .split(",")
  .map(Number);
if (SIZES.some((size) => !Number.isInteger(size) || size < 1_000)) throw new Error("--sizes needs whole numbers of users, 1,000 or more");
const BIG_REFERRER_INVITES = BENCH_REFERENCES.api.productionSize.bigReferrerInvites;
const HOT_USERS = smoke ? 50 : 1_000;
const connections = BENCH_REFERENCES.api.connections;
const durationS = smoke ? 1 : 5;
const P99_TARGET_MS = BENCH_REFERENCES.api.p99Ms;
const CPU_GROWTH_MAX = BENCH_REFERENCES.api.cpuPerRequestGrowthMax;
/** The followers' backlog (measureFollowers), and how long it may take before the bench says so. */
const FOLLOWED_MINTS = smoke ? 3_000 : 100_000;
const FOLLOWED_PENDING = smoke ? 20 : 1_000;
const FOLLOWED_PAYOUTS = smoke ? 2_000 : 100_000;
const FOLLOW_TIMEOUT_MS = smoke ? 120_000 : 600_000;
/** Live indexing's burst (shared/TARGETS.md): a block of 1,000 mints every 2 s. */
const PEAK_MINTS_PER_S = BENCH_REFERENCES.indexer.liveMintsPerBlock / BENCH_REFERENCES.indexer.liveBlockSeconds;
/** --only TEXT: the routes whose name holds it; --profile DIR: the API process writes a V8 CPU profile there. */
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const profileDir = process.argv.includes("--profile") ? process.argv[process.argv.indexOf("--profile") + 1] : undefined;
/** With --only, the followers are measured when the text names them ("follow"). */
const followersToo = only === undefined || "followers".includes(only.toLowerCase());

const serverUrl = postgresServerUrl();
const oro = addresses[CHAIN_IDS.development].Oro;
const random = (n: number) => 1 + Math.floor(Math.random() * n);
const session = (i: number) => ({ authorization: `Bearer ${tokenOf(i)}` });

/**
 * The production rate, generously rounded up (README, "At production size"): 2,000,000 humans, each opening the app
 * 4 times a day, 12% of a day's opens in its busiest hour (a flat day would put 4.2% in each), and 1.5× that hour's
 * mean for its busiest minutes: 2,000,000 × 4 × 0.12 / 3,600 × 1.5 = 400 opens a second (TARGETS.md's busiest
 * minute). A route's rate is that times its requests per open. The smoke size runs a fifth of it, for a second.
 */
const PEAK_OPENS_PER_S = BENCH_REFERENCES.api.appOpensPerSecond;
const rateOf = (requestsPerOpen: number) => Math.ceil((PEAK_OPENS_PER_S * requestsPerOpen) / (smoke ? 5 : 1));
/** A rate run that answered fewer than this share of what it was set to send fell behind. */
const KEPT_UP = 0.95;

interface Route {
  name: string;
  pick: (nextCursor: string | null) => { path: string; headers?: Record<string, string> };
  /** Requests a second at the production rate. */
  ratePerS: number;
}

/** The hot routes; users 2..HOT_USERS are referrers with 5 invites, user 1 the referrer with the long history. */
const ALL_ROUTES: Route[] = [
  // Two reads per open: the home screen and the refetch after a mint.
  { name: "streaks/current (cached)", ratePerS: rateOf(2), pick: () => ({ path: `/api/streaks/current?userAddress=${addressOf(random(HOT_USERS))}` }) },
  // Through to the (fake) indexer and into the shared streak cache table: an upsert and a NOTIFY per request.
  // One mint a day at most, each followed by a read that bypasses the cache (SPEC, "Streak refetch"): one per open, generously.
  { name: "streaks/current (uncached)", ratePerS: rateOf(1), pick: () => ({ path: `/api/streaks/current?userAddress=${addressOf(random(HOT_USERS))}&bypassCache=true` }) },
  {
    name: "referral_codes/for_user",
    ratePerS: rateOf(1),
    pick: () => {
      const i = random(HOT_USERS);
      return { path: `/api/referral_codes/for_user?userAddress=${addressOf(i)}&app=oro`, headers: session(i) };
    },
  },
  {
    name: "oro-earned (cached)",
    ratePerS: rateOf(1),
    pick: () => {
      const i = random(HOT_USERS);
      return { path: `/api/referrals/oro-earned?userAddress=${addressOf(i)}&forceBustCache=false`, headers: session(i) };
    },
  },
  {
    name: "oro-earned (uncached)",
    ratePerS: rateOf(1),
    pick: () => {
      const i = random(HOT_USERS);
      return { path: `/api/referrals/oro-earned?userAddress=${addressOf(i)}&forceBustCache=true`, headers: session(i) };
    },
  },
  {
    name: "oro-earned, the long-history referrer (uncached, first page)",
    ratePerS: rateOf(1),
    pick: () => ({ path: `/api/referrals/oro-earned?userAddress=${addressOf(1)}&forceBustCache=true`, headers: session(1) }),
  },
  {
    name: "oro-earned, the long-history referrer (second page)",
    ratePerS: rateOf(1),
    pick: (nextCursor) => ({
      path: `/api/referrals/oro-earned?userAddress=${addressOf(1)}&forceBustCache=true${nextCursor ? `&cursor=${encodeURIComponent(nextCursor)}` : ""}`,
      headers: session(1),
    }),
  },
  { name: "erc20/token-price", ratePerS: rateOf(1), pick: () => ({ path: `/api/erc20/token-price?tokenAddresses=${oro}` }) },
];
const ROUTES = ALL_ROUTES.filter((route) => !only || route.name.includes(only));
if (ROUTES.length === 0 && !followersToo) {
  // `pnpm bench --only …` passes the option to every API bench: this one may have no such route.
  console.log(`size bench: neither a route's name nor "followers" holds "${only}": nothing to measure`);
  process.exit(0);
}

/** The followers of the indexer's mints and payouts working through a backlog at this size (measureFollowers). */
interface FollowersRun {
  mints: number;
  pending: number;
  payouts: number;
  mintsSeconds: number;
  payoutsSeconds: number;
  /** The pending referrals the mints decided (payable), and the vouchers recorded paid. */
  payable: number;
  recordedPaid: number;
  /** The API process's CPU µs per event followed (mints and payouts together). */
  cpuMicrosPerEvent: number;
}

interface SizeRun {
  users: number;
  followers: FollowersRun | undefined;
  bigInvites: number;
  seedSeconds: number;
  answerBytes: number;
  results: Measure[];
  /** The same routes at their production rate. */
  atRate: Measure[];
  /** A bare Fastify route measured right before this size's routes, and the 1-minute load average around them. */
  ceiling: Measure;
  load: [number, number];
}

// The shared machine's load comes and goes: each size also measures the bare route, so that a slow column can be
// told from a busy moment.
const ceilingPort = await freePort();
// The API as docker-compose runs it: its rate limits count in Redis (one budget across replicas), when redis-server
// is installed; otherwise in the process, as one replica on the embedded defaults.
const redis = redisServerBinary ? await startRedisServer() : undefined;
if (!redis) console.log("redis-server is not installed: the API's rate limits count in its process (as one replica's would), not in Redis as docker-compose runs it");
const ceilingProcess = await start("ceiling", ["scripts/bench-ceiling.ts", String(ceilingPort)], {});
await waitForOk(`http://127.0.0.1:${ceilingPort}/`, ceilingProcess);

async function measureSize(users: number): Promise<SizeRun> {
  const referrals = Math.floor(users / 2);
  const bigInvites = Math.min(BIG_REFERRER_INVITES, Math.floor(referrals / 10));
  const scratch = await createScratchDatabase(serverUrl, databasePrefix("oro_api_bench_size"));
  const indexer = await startFakeIndexer();
  let api: ChildProcess | undefined;
  try {
    const seedSeconds = await seedReferrals(scratch.url, { users, referrals, bigReferrerInvites: bigInvites, sessions: HOT_USERS });
    console.log(`\n${users.toLocaleString("en")} users, ${referrals.toLocaleString("en")} referrals (user 1: ${bigInvites.toLocaleString("en")} invites), seeded in ${seedSeconds.toFixed(1)} s`);
    const port = await freePort();
    api = await start("API", ["src/server.ts"], benchedApiEnv({ databaseUrl: scratch.url, port, indexerUrl: indexer.url, rateLimitRedisUrl: redis?.url }), profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
    const base = `http://127.0.0.1:${port}`;
    await waitForOk(`${base}/api/health`, api);
    for (let i = 1; i <= HOT_USERS; i++) {
      await fetch(`${base}/api/streaks/current?userAddress=${addressOf(i)}`);
      await fetch(`${base}/api/referrals/oro-earned?userAddress=${addressOf(i)}&forceBustCache=false`, { headers: session(i) });
    }
    // The long-history referrer's first page: its size (one page, whatever the history) and its cursor.
    const first = await fetch(`${base}/api/referrals/oro-earned?userAddress=${addressOf(1)}&forceBustCache=true`, { headers: session(1) });
    const firstText = await first.text();
    const nextCursor = (JSON.parse(firstText) as { nextCursor?: string | null }).nextCursor ?? null;
    const loadBefore = loadavg()[0] ?? 0;
    const ceiling = await measureRoute("bare Fastify route (ceiling)", `http://127.0.0.1:${ceilingPort}`, () => ({ path: "/" }), { connections, durationS, pid: ceilingProcess.pid });
    const results: Measure[] = [];
    const atRate: Measure[] = [];
    for (const route of ROUTES) {
      const pick = () => route.pick(nextCursor);
      results.push(await measureRoute(route.name, base, pick, { connections, durationS, pid: api?.pid }));
      // Warmed by the saturated run just before.
      atRate.push(await measureRoute(route.name, base, pick, { connections, durationS, pid: api?.pid, ratePerS: route.ratePerS, warmUpS: 0 }));
    }
    const load: [number, number] = [loadBefore, loadavg()[0] ?? 0];
    const followers = followersToo ? await measureFollowers(scratch.url, indexer.url, users, referrals, api.pid) : undefined;
    return { users, bigInvites, seedSeconds, answerBytes: Buffer.byteLength(firstText), results, atRate, ceiling, load, followers };
  } finally {
    await stop(api);
    await indexer.stop();
    await scratch.drop();
  }
}

/**
 * The followers at this size: the fake indexer lists a backlog of mints (FOLLOWED_MINTS, the first FOLLOWED_PENDING to
 * referees of pending referrals, which the mints decide: payable, both vouchers signed) and of payouts (the seed's vouchers,
 * recorded paid), and the API's workers follow both from where they are, as after an outage of the indexer. Timed from the
 * backlog's publication until each follower's cursor reaches its last event.
 */
async function measureFollowers(url: string, indexerUrl: string, users: number, referrals: number, apiPid: number | undefined): Promise<FollowersRun> {
  const pending = FOLLOWED_PENDING;
  const backlog: FollowedBacklog = { mints: FOLLOWED_MINTS, payouts: Math.min(FOLLOWED_PAYOUTS, 2 * referrals), users, referees: { first: users + 1, count: pending } };
  await seedPendingReferrals(url, { firstUser: users + 1, count: pending, referrer: 2 });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const cursorOf = async (name: string) =>
      (await client.query<{ cursor: string | null }>(`SELECT "cursor" FROM "chain_follower" WHERE "name" = $1`, [name])).rows[0]?.cursor ?? null;
    const last = { mints: backlogCursor(backlog.mints, 1_000), payouts: backlogCursor(backlog.payouts, 10) };
    const cpuBefore = apiPid ? cpuMicrosOf(apiPid) : 0;
    const started = performance.now();
    const response = await fetch(`${indexerUrl}/bench/backlog`, { method: "POST", body: JSON.stringify(backlog) });
    if (!response.ok) throw new Error(`the fake indexer refused the backlog: ${response.status}`);
    const done: { mints?: number; payouts?: number } = {};
    const deadline = Date.now() + FOLLOW_TIMEOUT_MS;
    while ((done.mints === undefined || done.payouts === undefined) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const name of ["mints", "payouts"] as const) {
        if (done[name] === undefined && (await cursorOf(name)) === last[name]) done[name] = (performance.now() - started) / 1000;
      }
    }
    const cpu = apiPid ? cpuMicrosOf(apiPid) - cpuBefore : 0;
    const counted = await client.query<{ payable: number; paid: number }>(`
      SELECT (SELECT count(*) FROM "referral" WHERE "id" IN (SELECT md5('pending' || i)::uuid::text FROM generate_series(${users + 1}, ${users + pending}) AS i) AND "status" = 'payable')::int AS "payable",
             (SELECT count(*) FROM "referral_reward" WHERE "voucher_nonce" <= ${backlog.payouts} AND "claimed_at" IS NOT NULL)::int AS "paid"`);
    const row = counted.rows[0];
    return {
      mints: backlog.mints,
      pending,
      payouts: backlog.payouts,
      mintsSeconds: done.mints ?? Number.NaN,
      payoutsSeconds: done.payouts ?? Number.NaN,
      payable: row?.payable ?? 0,
      recordedPaid: row?.paid ?? 0,
      cpuMicrosPerEvent: cpu / (backlog.mints + backlog.payouts),
    };
  } finally {
    await client.end();
  }
}

const runs: SizeRun[] = [];
try {
  for (const users of SIZES) runs.push(await measureSize(users));
} finally {
  const exited = once(ceilingProcess, "exit");
  ceilingProcess.kill("SIGTERM");
  await exited;
  await redis?.stop();
}

const label = (users: number) => (users >= 1_000_000 ? `${users / 1_000_000} M` : `${users / 1_000} k`);
console.log(`\nSaturated: ${connections} connections as fast as they go, ${durationS} s per route. p99 (p50) in ms by users in the database, and the API process's CPU µs per request${redis ? " (its rate limits counted in Redis)" : ""}${smoke ? " (smoke size: figures meaningless)" : ""}. ` +
    "At saturation the p99 is mostly queueing on the machine's cores: met is the CPU per request staying flat from the smallest size to the largest");
console.log(`| route | ${runs.map((run) => `${label(run.users)} users`).join(" | ")} | target | met |`);
console.log(`|---|${runs.map(() => "---|").join("")}---|---|`);
for (const [index, route] of ROUTES.entries()) {
  const cells = runs.map((run) => {
    const measured = run.results[index];
    if (!measured || measured.requests === 0) return "no answer in the window";
    const cpu = measured.cpuMicros === undefined ? "" : `, ${Math.round(measured.cpuMicros).toLocaleString("en")} µs`;
    return `${measured.p99} (${measured.p50})${cpu}${measured.errors ? `, ${measured.errors} errors` : ""}`;
  });
  // The verdict is the CPU per request, the largest size against the smallest (a saturated p99 is a queue length).
  const smallest = runs[0]?.results[index];
  const largest = runs.at(-1)?.results[index];
  const growth = smallest?.cpuMicros && largest?.cpuMicros ? largest.cpuMicros / smallest.cpuMicros : undefined;
  const answeredEverywhere = runs.every((run) => {
    const measured = run.results[index];
    return measured !== undefined && measured.requests > 0 && measured.errors === 0;
  });
  const met = runs.length < 2 || growth === undefined ? null : answeredEverywhere && growth <= CPU_GROWTH_MAX;
  const range = runs.length < 2 ? "" : `${label(runs[0]?.users ?? 0)} → ${label(runs.at(-1)?.users ?? 0)}`;
  console.log(`| ${route.name} | ${cells.join(" | ")} | CPU/request ${range} ≤ ${CPU_GROWTH_MAX}× (flat)${growth === undefined ? "" : `: ${growth.toFixed(2)}×`} | ${met === null ? "—" : met ? "yes" : "no"} |`);
  recordBenchFigure({
    bench: "@oro/api",
    figure: `${route.name}, API CPU per request${range ? `, ${range} users` : " at one size"} (saturated)`,
    measured: growth === undefined ? "?" : `${Math.round(smallest?.cpuMicros ?? 0).toLocaleString("en")} → ${Math.round(largest?.cpuMicros ?? 0).toLocaleString("en")} µs (${growth.toFixed(2)}×)`,
    target: `≤ ${CPU_GROWTH_MAX}× (flat)`,
    met,
  });
}
console.log(`| bare Fastify route (ceiling), same moment | ${runs.map((run) => `${run.ceiling.p99} (${run.ceiling.p50}), ${Math.round(run.ceiling.requests).toLocaleString("en")} req/s, ${Math.round(run.ceiling.cpuMicros ?? 0)} µs`).join(" | ")} | | |`);
console.log(`| load average (1 min), before and after | ${runs.map((run) => `${run.load[0].toFixed(1)}, ${run.load[1].toFixed(1)}`).join(" | ")} | | |`);
console.log(`| the long-history referrer's first answer, bytes | ${runs.map((run) => `${run.answerBytes.toLocaleString("en")} (${run.bigInvites.toLocaleString("en")} invites)`).join(" | ")} | one page | |`);
console.log(`| seed time, s | ${runs.map((run) => run.seedSeconds.toFixed(0)).join(" | ")} | | |`);

// The production rate: what the same routes do at the load two million humans would bring, not their ceiling.
const keptUp = (measured: Measure, route: Route) => measured.requests >= KEPT_UP * route.ratePerS;
console.log(
  `\nAt the production rate${smoke ? " (a fifth of it: smoke size)" : ""}: ${connections} connections sending the route's set rate, ${durationS} s per route. ` +
    `p99 (p50) in ms, the answers a second ("fell behind": under ${KEPT_UP * 100}% of the rate answered) and the API's CPU at the rate as a share of one core. ` +
    "The requests are evenly spaced and each one's time counts from when it was due, so a server that falls behind shows in the p99",
);
console.log(`(met: at ${runs.at(-1) ? label(runs.at(-1)?.users ?? 0) : "?"} users, the largest size measured)`);
console.log(`| route | rate, req/s | ${runs.map((run) => `${label(run.users)} users`).join(" | ")} | target | met |`);
console.log(`|---|---|${runs.map(() => "---|").join("")}---|---|`);
for (const [index, route] of ROUTES.entries()) {
  const cells = runs.map((run) => {
    const measured = run.atRate[index];
    if (!measured || measured.answered === 0) return "no answer in the window";
    const answeredPerS = Math.round(measured.answered / durationS).toLocaleString("en");
    // The API's CPU at this rate, as a share of one core: what the route costs the process at the production rate.
    const core = measured.cpuMicros === undefined ? "" : `, ${Math.round((measured.cpuMicros * route.ratePerS) / 10_000)}% of a core`;
    return `${measured.p99} (${measured.p50}), ${answeredPerS}/s${core}${keptUp(measured, route) ? "" : ", fell behind"}${measured.errors ? `, ${measured.errors} errors` : ""}`;
  });
  // Judged where the target sets it and the figure names it: the largest size measured (2 M users by default).
  const largest = runs.at(-1);
  const measuredAtLargest = largest?.atRate[index];
  const met = measuredAtLargest !== undefined && keptUp(measuredAtLargest, route) && measuredAtLargest.p99 < P99_TARGET_MS && measuredAtLargest.errors === 0;
  console.log(`| ${route.name} | ${route.ratePerS.toLocaleString("en")} | ${cells.join(" | ")} | p99 < ${P99_TARGET_MS} ms at the rate | ${met ? "yes" : "no"} |`);
  recordBenchFigure({
    bench: "@oro/api",
    figure: `${route.name} at ${largest ? label(largest.users) : "?"} users, p99 at the production rate (${route.ratePerS} req/s)`,
    measured: `${largest?.atRate[index]?.p99 ?? "?"} ms`,
    target: `< ${P99_TARGET_MS} ms`,
    met,
  });
}

// The followers: how fast the API's workers go through what the indexer lists, against what two million humans bring.
const followed = runs.flatMap((run) => (run.followers ? [{ users: run.users, ...run.followers }] : []));
if (followed.length > 0) {
console.log(
  `\nThe followers of the indexer's mints and payouts through a backlog (as after an outage of the indexer): ${FOLLOWED_MINTS.toLocaleString("en")} mints in blocks of 1,000, ` +
    `${FOLLOWED_PENDING.toLocaleString("en")} of them the first mints of pending referrals' referees, and up to ${FOLLOWED_PAYOUTS.toLocaleString("en")} payouts; ` +
    `events a second from the backlog's publication until the follower's cursor reached its last event, and the API's CPU per event (both followers at once)`,
);
console.log(`| follower | ${followed.map((run) => `${label(run.users)} users`).join(" | ")} | reference | met |`);
console.log(`|---|${followed.map(() => "---|").join("")}---|---|`);
const perSecond = (events: number, seconds: number) => (Number.isFinite(seconds) ? Math.round(events / seconds).toLocaleString("en") : "not done");
// Every referral decided at every size; the rate judged at the largest, as its figure says.
const largestFollowed = followed.at(-1);
const mintsMet = followed.every((run) => run.payable === run.pending) && largestFollowed !== undefined && largestFollowed.mints / largestFollowed.mintsSeconds >= PEAK_MINTS_PER_S;
console.log(
  `| mints: mints/s (referrals decided) | ${followed.map((run) => `${perSecond(run.mints, run.mintsSeconds)} (${run.payable.toLocaleString("en")} of ${run.pending.toLocaleString("en")} payable)`).join(" | ")} | ≥ ${PEAK_MINTS_PER_S}/s at ${largestFollowed ? label(largestFollowed.users) : "?"} users (1,000 mints a 2 s block), every referral decided | ${mintsMet ? "yes" : "no"} |`,
);
const payoutsMet = followed.every((run) => run.recordedPaid === run.payouts && Number.isFinite(run.payoutsSeconds));
console.log(
  `| payouts: payouts/s (vouchers recorded paid) | ${followed.map((run) => `${perSecond(run.payouts, run.payoutsSeconds)} (${run.recordedPaid.toLocaleString("en")} of ${run.payouts.toLocaleString("en")})`).join(" | ")} | every voucher recorded | ${payoutsMet ? "yes" : "no"} |`,
);
console.log(`| the API's CPU per event followed | ${followed.map((run) => `${Math.round(run.cpuMicrosPerEvent)} µs`).join(" | ")} | | |`);
recordBenchFigure({
  bench: "@oro/api",
  figure: `mints followed at ${largestFollowed ? label(largestFollowed.users) : "?"} users, a second`,
  measured: largestFollowed ? perSecond(largestFollowed.mints, largestFollowed.mintsSeconds) : "?",
  target: `≥ ${PEAK_MINTS_PER_S}`,
  met: mintsMet,
});
// A figure below its reference is reported, not a failure; a referral not decided or a voucher not recorded is.
const allApplied = followed.every((run) => run.payable === run.pending && Number.isFinite(run.mintsSeconds));
if (!allApplied || !payoutsMet) process.exitCode = 1;
}
if (runs.some((run) => [...run.results, ...run.atRate].some((result) => result.errors > 0))) process.exitCode = 1;
