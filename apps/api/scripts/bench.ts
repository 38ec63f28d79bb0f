// pnpm --filter @oro/api bench [--duration 10] [--connections 50]
// The API's throughput on this machine, beside the reference of shared/TARGETS.md: a bare Fastify route that
// returns a constant (the ceiling) and the hot routes, measured in one run with autocannon on 127.0.0.1.
// Each route is measured right after a run of the ceiling and compared with it.
// Needs PostgreSQL (DATABASE_URL): a fresh database is created next to it, seeded with 100,000 users and
// 50,000 payable referrals, and dropped afterwards. The indexer is a local fake (an HTTP server, a process
// of its own) that answers like the real one; the API and the ceiling each run as their own Node process. With
// redis-server installed, the cached routes are measured again on a second API process whose rate limits count in
// Redis, as docker-compose runs the API (one budget across replicas).
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { addresses, BENCH_REFERENCES, CHAIN_IDS } from "@oro/clients";
import { recordBenchFigure } from "@oro/dev-stack";
import { createScratchDatabase } from "../src/db/scratch.js";
import { redisServerBinary, startRedisServer, type RedisServer } from "./redis-server.js";
import { addressOf, benchedApiEnv, databasePrefix, freePort, type Measure, measureRoute, postgresServerUrl, seedReferrals, start, startFakeIndexer, tokenOf, waitForOk, numberOption as option } from "./bench-support.js";

/** --smoke: a tiny size and a second per route, so that CI shows the bench still runs (figures meaningless). */
const smoke = process.argv.includes("--smoke");
const USERS = smoke ? 2_000 : 100_000;
const REFERRALS = smoke ? 500 : 50_000;
/** How many distinct users (addresses, sessions) the load spreads over. */
const HOT_USERS = smoke ? 100 : 1_000;


const durationS = option("duration", smoke ? 1 : 10);
const connections = option("connections", smoke ? 5 : BENCH_REFERENCES.api.connections);
/** shared/TARGETS.md: the cached hot routes' share of the ceiling, and every hot route's p99 (uncached included). */
const { cachedShareOfCeiling, p99Ms } = BENCH_REFERENCES.api;
const profileIndex = process.argv.indexOf("--profile");
/** --profile DIR: the API process writes a V8 CPU profile there (open it in Chrome's DevTools). */
const profileDir = profileIndex >= 0 ? process.argv[profileIndex + 1] : undefined;
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

const serverUrl = postgresServerUrl();
const oro = addresses[CHAIN_IDS.development].Oro;


/** A fresh database with the seed: users, 10,000 referrers with 5 payable referrals each, rewards, sessions. */
async function seed(url: string): Promise<void> {
  const seconds = await seedReferrals(url, { users: USERS, referrals: REFERRALS, bigReferrerInvites: 0, sessions: HOT_USERS });
  console.log(`seeded ${USERS.toLocaleString("en")} users, ${REFERRALS.toLocaleString("en")} payable referrals (two rewards each) in ${seconds.toFixed(1)} s`);
}

const measure = (name: string, base: string, pid: number | undefined, pick: () => { path: string; headers?: Record<string, string> }) =>
  measureRoute(name, base, pick, { connections, durationS, pid });
const random = (n: number) => 1 + Math.floor(Math.random() * n);
const micros = (measured: Measure) => (measured.cpuMicros === undefined ? "?" : measured.cpuMicros.toFixed(1));
/** The ceiling's CPU per request over the route's: the throughput share a machine with a core to spare would show. */
const cpuShare = (route: Measure, ceiling: Measure) =>
  route.cpuMicros && ceiling.cpuMicros ? `${((ceiling.cpuMicros / route.cpuMicros) * 100).toFixed(0)}%` : "?";

async function main(): Promise<void> {
  const scratch = await createScratchDatabase(serverUrl, databasePrefix("oro_api_bench"));
  const url = scratch.url;

  const indexer = await startFakeIndexer();
  const children: ChildProcess[] = [];
  let redis: RedisServer | undefined;
  /** The API with its rate limits counted in Redis, when redis-server is installed. */
  let sharedApi: { base: string; pid: number | undefined } | undefined;
  try {
    await seed(url);
    const [apiPort, barePort] = [await freePort(), await freePort()];
    // The API as one replica runs it (the embedded default: the rate limits count in the process) and, when
    // redis-server is installed, as docker-compose runs it: the limits count in Redis, one budget across replicas.
    const apiEnv = (port: number, redisUrl?: string) => benchedApiEnv({ databaseUrl: url, port, indexerUrl: indexer.url, rateLimitRedisUrl: redisUrl });
    const api = await start("API", ["src/server.ts"], apiEnv(apiPort), profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
    children.push(api);
    const bare = await start("ceiling", ["scripts/bench-ceiling.ts", String(barePort)], {});
    children.push(bare);
    const apiBase = `http://127.0.0.1:${apiPort}`;
    const bareBase = `http://127.0.0.1:${barePort}`;
    await waitForOk(`${apiBase}/api/health`, api);
    await waitForOk(`${bareBase}/`, bare);
    if (redisServerBinary) {
      redis = await startRedisServer();
      const sharedPort = await freePort();
      const apiShared = await start("API (limits in Redis)", ["src/server.ts"], apiEnv(sharedPort, redis.url), profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}/limits-in-redis`] : []);
      children.push(apiShared);
      sharedApi = { base: `http://127.0.0.1:${sharedPort}`, pid: apiShared.pid };
      await waitForOk(`${sharedApi.base}/api/health`, apiShared);
    } else {
      console.log("redis-server is not installed: the rows with the limits in Redis (as docker-compose runs the API) are left out");
    }

    // Warm the caches the "cached" measurements read: each hot user's streak and earnings once, in each process.
    for (const base of [apiBase, ...(sharedApi ? [sharedApi.base] : [])]) {
      for (let i = 1; i <= HOT_USERS; i++) {
        await fetch(`${base}/api/streaks/current?userAddress=${addressOf(i)}`);
        await fetch(`${base}/api/referrals/oro-earned?userAddress=${addressOf(i)}&forceBustCache=false`, { headers: { authorization: `Bearer ${tokenOf(i)}` } });
      }
    }

    console.log(`\nautocannon, ${connections} connections, ${durationS} s per route (after a 2 s warm-up), ${HOT_USERS} users spread`);
    const session = (i: number) => ({ authorization: `Bearer ${tokenOf(i)}` });
    const hotRoutes: { name: string; pick: () => { path: string; headers?: Record<string, string> }; ratio?: number; p99: number }[] = [
      // Not a target: the API's own plugins (CORS, security headers, cookies, request ids) around a constant,
      // without validation or rate limit: how much of the gap to the ceiling is the stack itself.
      { name: "GET /api/health (the API's stack, no work)", pick: () => ({ path: "/api/health" }), p99: p99Ms },
      {
        name: "GET /api/streaks/current (cached)",
        pick: () => ({ path: `/api/streaks/current?userAddress=${addressOf(random(HOT_USERS))}` }),
        ratio: cachedShareOfCeiling,
        p99: p99Ms,
      },
      {
        name: "GET /api/referral_codes/for_user",
        pick: () => {
          const i = random(HOT_USERS);
          return { path: `/api/referral_codes/for_user?userAddress=${addressOf(i)}&app=oro`, headers: session(i) };
        },
        ratio: cachedShareOfCeiling,
        p99: p99Ms,
      },
      {
        name: "GET /api/referrals/oro-earned (cached)",
        pick: () => {
          const i = random(HOT_USERS);
          return { path: `/api/referrals/oro-earned?userAddress=${addressOf(i)}&forceBustCache=false`, headers: session(i) };
        },
        ratio: cachedShareOfCeiling,
        p99: p99Ms,
      },
      {
        name: "GET /api/referrals/oro-earned (uncached)",
        pick: () => {
          const i = random(HOT_USERS);
          return { path: `/api/referrals/oro-earned?userAddress=${addressOf(i)}&forceBustCache=true`, headers: session(i) };
        },
        // No share of the ceiling for an uncached read, but the same p99 as every hot route: TARGETS.md holds the
        // uncached answers to it too.
        p99: p99Ms,
      },
      { name: "GET /api/erc20/token-price", pick: () => ({ path: `/api/erc20/token-price?tokenAddresses=${oro}` }), ratio: cachedShareOfCeiling, p99: p99Ms },
    ];
    // The machine is shared: the ceiling is measured right before each route, and each route is compared with
    // its own ceiling run, so that load coming and going between runs does not decide the ratio.
    const rows: { route: Measure; ceiling: Measure; ratio?: number; p99Target: number }[] = [];
    // The same routes on the API whose limits count in Redis (the cached ones, whose cost the limits are a large part of).
    const withSharedLimits = sharedApi
      ? hotRoutes.filter((route) => route.ratio !== undefined).map((route) => ({ ...route, name: `${route.name}, limits in Redis`, shared: true }))
      : [];
    for (const route of [...hotRoutes, ...withSharedLimits].filter((candidate) => !only || candidate.name.includes(only))) {
      const ceiling = await measure("bare Fastify route (ceiling)", bareBase, bare.pid, () => ({ path: "/" }));
      const target = "shared" in route && sharedApi ? sharedApi : { base: apiBase, pid: api.pid };
      const measured = await measure(route.name, target.base, target.pid, route.pick);
      rows.push({ route: measured, ceiling, ...(route.ratio ? { ratio: route.ratio } : {}), p99Target: route.p99 });
    }

    // CPU µs per request of each server process: what the request cost, whatever else the machine was doing (the
    // req/s and latencies swing with the load; this does much less), and what the throughput ratio tends to.
    console.log(`\n| route | req/s | p50 ms | p99 ms | API CPU µs/request | ceiling run just before: req/s, p99 ms, CPU µs/request | share of ceiling (req/s) | share by CPU | target (TARGETS.md, issue 5) | met |`);
    console.log(`|---|---|---|---|---|---|---|---|---|---|`);
    for (const { route, ceiling, ratio, p99Target } of rows) {
      const share = route.requests / ceiling.requests;
      const met = (ratio === undefined || share >= ratio) && route.p99 < p99Target && route.errors === 0;
      const goal = `${ratio ? `>= ${ratio * 100}% of ceiling, ` : ""}p99 < ${p99Target} ms`;
      console.log(
        `| ${route.name} | ${Math.round(route.requests)} | ${route.p50} | ${route.p99} | ${micros(route)} | ${Math.round(ceiling.requests)}, ${ceiling.p99}, ${micros(ceiling)} | ` +
          `${(share * 100).toFixed(0)}% | ${cpuShare(route, ceiling)} | ${goal} | ${met ? "yes" : "no"} |`,
      );
      recordBenchFigure({ bench: "@oro/api", figure: route.name, measured: `${(share * 100).toFixed(0)}% of ceiling, p99 ${route.p99} ms`, target: goal, met });
    }
  } finally {
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    const exited = running.map((child) => once(child, "exit"));
    for (const child of running) child.kill("SIGTERM");
    await Promise.all(exited);
    await redis?.stop();
    await indexer.stop();
    await scratch.drop();
  }
}

await main();
