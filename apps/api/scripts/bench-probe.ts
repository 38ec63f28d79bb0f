// tsx scripts/bench-probe.ts [--duration 10] [--connections 50] [--smoke] [--server PATH]
// What an attacker's probe of the API costs it (issue 38): a flood of GET /api/ready, and requests refused for their
// bearer token (none, random ones of the issued shape, malformed ones), beside /api/health; and what a signed-in user
// sees meanwhile: the latency of their route at a steady rate, alone and while /api/ready is flooded. Each figure
// is req/s, p50 and p99 (ms) and the API process's CPU µs per request. Needs PostgreSQL (DATABASE_URL): a fresh
// database is created next to it, seeded, and dropped afterwards. The per-IP budgets are out of reach (the load
// comes from one address), the session refusals' budget as production sets it (RATE_LIMIT_SESSION_REFUSALS_PER_IP).
// --server PATH runs another copy of the API's src/server.ts (an earlier version, to compare on the same machine), through
// tsx: only this copy is transpiled (a loader costs at start, not per request).
import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { createScratchDatabase } from "../src/db/scratch.js";
import {
  addressOf,
  databasePrefix,
  freePort,
  measureRoute,
  numberOption as option,
  postgresServerUrl,
  seedReferrals,
  start,
  startFakeIndexer,
  tokenOf,
  waitForOk,
  type Measure,
  stop,
} from "./bench-support.js";

const smoke = process.argv.includes("--smoke");
const HOT_USERS = 100;
const durationS = option("duration", smoke ? 1 : 10);
const connections = option("connections", smoke ? 5 : 50);
/** The signed-in user's steady rate (requests a second), alone and beside the flood. */
const userRate = option("user-rate", smoke ? 20 : 100);
const serverIndex = process.argv.indexOf("--server");
const server = serverIndex >= 0 ? (process.argv[serverIndex + 1] ?? "src/server.ts") : "src/server.ts";

const random = (n: number) => 1 + Math.floor(Math.random() * n);
const session = (i: number) => ({ authorization: `Bearer ${tokenOf(i)}` });
const sessionRoute = (i: number) => `/api/referral_codes/for_user?userAddress=${addressOf(i)}&app=oro`;

async function main(): Promise<void> {
  const scratch = await createScratchDatabase(postgresServerUrl(), databasePrefix("oro_api_bench_probe"));
  const indexer = await startFakeIndexer();
  let api: ChildProcess | undefined;
  try {
    await seedReferrals(scratch.url, { users: 2_000, referrals: 500, bigReferrerInvites: 0, sessions: HOT_USERS });
    const port = await freePort();
    api = await start("API", [server], {
      NODE_ENV: "development",
      DATABASE_URL: scratch.url,
      API_PORT: String(port),
      LOG_LEVEL: "warn",
      WORKERS_ENABLED: "false",
      MIGRATE_ON_START: "false",
      INDEXER_URL: indexer.url,
      SESSION_CACHE_TTL: "1h",
      // Every request comes from 127.0.0.1: the per-IP budgets out of reach, so that what is measured is each
      // request's own cost. The session refusals' budget stays as production sets it.
      RATE_LIMIT_PER_IP: "1000000",
      RATE_LIMIT_PER_ADDRESS: "1000000",
      RATE_LIMIT_READY_PER_IP: "1000000",
    });
    const base = `http://127.0.0.1:${port}`;
    await waitForOk(`${base}/api/health`, api);
    for (let i = 1; i <= HOT_USERS; i++) await fetch(`${base}${sessionRoute(i)}`, { headers: session(i) });

    const measure = (name: string, pick: () => { path: string; headers?: Record<string, string> }) =>
      measureRoute(name, base, pick, { connections, durationS, pid: api?.pid });
    const signedIn = () => {
      const i = random(HOT_USERS);
      return { path: sessionRoute(i), headers: session(i) };
    };
    const rows: Measure[] = [];
    console.log(`\nautocannon, ${connections} connections, ${durationS} s per row (after a 2 s warm-up)`);
    rows.push(await measure("GET /api/health", () => ({ path: "/api/health" })));
    rows.push(await measure("GET /api/ready (flood)", () => ({ path: "/api/ready" })));
    rows.push(await measureRoute(`signed-in user alone, ${userRate}/s`, base, signedIn, { connections: 5, durationS, ratePerS: userRate }));
    const [flood, beside] = await Promise.all([
      measure("GET /api/ready (flood, with the user beside it)", () => ({ path: "/api/ready" })),
      measureRoute(`signed-in user beside the /api/ready flood, ${userRate}/s`, base, signedIn, { connections: 5, durationS, ratePerS: userRate, warmUpS: 2 }),
    ]);
    rows.push(flood, beside);
    rows.push(await measure("refused: no token (401)", () => ({ path: sessionRoute(random(HOT_USERS)) })));
    rows.push(
      await measure("refused: random bearer tokens of the issued shape", () => ({
        path: sessionRoute(random(HOT_USERS)),
        headers: { authorization: `Bearer ${randomBytes(32).toString("base64url")}` },
      })),
    );
    rows.push(
      await measure("refused: malformed bearer tokens", () => ({
        path: sessionRoute(random(HOT_USERS)),
        headers: { authorization: `Bearer forged-${randomBytes(12).toString("hex")}` },
      })),
    );

    console.log(`\n| what | req/s | p50 ms | p99 ms | API CPU µs/request | answers not 2xx |`);
    console.log(`|---|---|---|---|---|---|`);
    for (const row of rows) {
      const cpu = row.cpuMicros === undefined ? "" : row.cpuMicros.toFixed(1);
      console.log(`| ${row.name} | ${Math.round(row.requests)} | ${row.p50} | ${row.p99} | ${cpu} | ${row.errors} |`);
    }
  } finally {
    await stop(api);
    await indexer.stop();
    await scratch.drop();
  }
}

await main();
