import { createHash } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addresses, CHAIN_IDS, type IndexerApi } from "@oro/clients";
import autocannon from "autocannon";
import pg from "pg";
import { openDatabase } from "../src/db/database.js";
import { loadConfig } from "../src/env.js";
import { API_ROOT } from "./paths.js";
import { transpileApi, type TranspiledApi } from "./transpiled-api.js";

// What the API's benchmarks share: free ports, the API as a process of its own, and a stand-in for the indexer.

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

/**
 * What the fake indexer lists to be followed once the bench publishes it (POST /bench/backlog): `mints` mints in chain
 * order, a thousand a block, the first `referees.count` to users `referees.first`…, the rest spread over users 1…`users`;
 * `payouts` payouts of vouchers 1…`payouts`, ten a block; blocks 2 s apart. Each wallet minted to then has a human of
 * its own, whose first mint came a minute ago.
 */
export interface FollowedBacklog {
  mints: number;
  payouts: number;
  users: number;
  referees: { first: number; count: number };
}

const BACKLOG_START = 1_800_000_000;
/** The cursor of the backlog's `index`th event (1-based) in a block of `perBlock` events, as the indexer's: time first. */
export const backlogCursor = (index: number, perBlock: number) =>
  `${BACKLOG_START + Math.floor((index - 1) / perBlock) * 2}${String(index).padStart(65, "0")}`;
/** How many of the backlog's events sort at or before `cursor`: an event's own, or a rewound one (a time, index 0). */
function backlogIndex(cursor: string | null, perBlock: number): number {
  if (cursor === null) return 0;
  const index = Number(cursor.slice(10));
  if (index > 0) return index;
  return Math.max(0, Math.ceil((Number(cursor.slice(0, 10)) - BACKLOG_START) / 2)) * perBlock;
}
/** The backlog's human behind a wallet: none of the seed's humans (theirs are small numbers). */
const humanOf = (address: string) => `0xfe${"0".repeat(22)}${address.slice(2)}`;

function backlogReceiver(backlog: FollowedBacklog, index: number): string {
  if (index <= backlog.referees.count) return addressOf(backlog.referees.first + index - 1);
  return addressOf(1 + ((index * 7_919) % backlog.users));
}

/** Answers the indexer's routes the API calls, in the indexer's shapes (apps/indexer src/api/types.ts). */
export function fakeIndexer(): Server {
  let backlog: FollowedBacklog | undefined;
  return createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://indexer");
    const send = (body: unknown) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const [, group, address, sub] = url.pathname.split("/");
    const now = Math.floor(Date.now() / 1000);
    if (request.method === "POST" && url.pathname === "/bench/backlog") {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        backlog = JSON.parse(body) as FollowedBacklog;
        send({ ok: true });
      });
      return;
    }
    const limit = Number(url.searchParams.get("limit") ?? "1000");
    const page = (total: number, perBlock: number) => {
      const after = backlogIndex(url.searchParams.get("after"), perBlock);
      return Array.from({ length: Math.max(0, Math.min(limit, total - after)) }, (_, i) => after + i + 1);
    };
    if (url.pathname === "/mints" && backlog) {
      const listed = backlog;
      const mints = page(listed.mints, 1_000).map((index) => ({ cursor: backlogCursor(index, 1_000), receiver: backlogReceiver(listed, index) }));
      return send({ mints });
    }
    if (url.pathname === "/referral-payouts" && backlog) {
      return send({ payouts: page(backlog.payouts, 10).map((index) => ({ cursor: backlogCursor(index, 10), nonce: String(index) })) });
    }
    // With a backlog published, every wallet was minted to a minute ago by a human of its own (the activations' questions).
    if (backlog && group === "streaks" && address && sub === "claims") {
      const claim = { transactionHash: `0x${"1".repeat(64)}`, blockNumber: 1, logIndex: 0, timestamp: now - 60, receiver: address, nullifierHash: humanOf(address), amount: "500000000000000000", numOfMints: 1, streak: 1 };
      return send({ claims: [claim] });
    }
    if (backlog && group === "streaks" && address && sub === "humans") return send({ humans: [humanOf(address)] });
    if (backlog && group === "humans") return send({ hasMinted: true, numOfMints: 1, firstMintedAt: now - 60 });
    if (group === "stats") return send({ waitBetweenMints: 86_400 });
    if (group === "streaks" && sub === "claims") return send({ claims: [] });
    if (group === "streaks" && address) {
      return send({
        address,
        nullifierHash: `0x${"1".padStart(64, "0")}`,
        currentStreak: 3,
        longestStreak: 7,
        numOfMints: 12,
        lastMintedAt: now - 3_600,
        nextMintAt: now - 3_600 + 86_400,
        streakExpiresAt: now - 3_600 + 2 * 86_400,
      });
    }
    // No voucher of the seed has been paid (the pages keep their open vouchers, and the answer is the indexer's shape).
    if (url.pathname === "/referral-payouts/nonces") return send({ claimed: [] } satisfies IndexerApi.ReferralNoncesResponse);
    // Nothing minted or paid since the seed: the API's followers find their lists at the newest event at once.
    if (url.pathname === "/mints") return send({ mints: [] } satisfies IndexerApi.MintsResponse);
    if (url.pathname === "/referral-payouts") return send({ payouts: [] } satisfies IndexerApi.ReferralPayoutsResponse);
    response.writeHead(404).end();
  });
}

/** The fake indexer in its own process (scripts/bench-indexer.ts), answering once this resolves; stop() ends it. */
export async function startFakeIndexer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = await start("fake indexer", ["scripts/bench-indexer.ts", String(port)], {});
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/stats`, child);
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Stops a process `start` began, if it still runs, and waits for it to exit. */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/**
 * The environment of the API process whose hot routes the benches measure (bench.ts, bench-size.ts): one replica as
 * production runs it, on the seeded database at `databaseUrl`, asking the indexer at `indexerUrl`; with
 * `rateLimitRedisUrl`, its rate limits count in that Redis, as docker-compose runs the API (one budget across replicas).
 */
export function benchedApiEnv({ databaseUrl, port, indexerUrl, rateLimitRedisUrl }: { databaseUrl: string; port: number; indexerUrl: string; rateLimitRedisUrl?: string | undefined }): Record<string, string> {
  return {
    NODE_ENV: "development",
    DATABASE_URL: databaseUrl,
    API_PORT: String(port),
    LOG_LEVEL: "warn",
    // The workers as every replica runs them: the payouts followed are what lets an earnings read ask the indexer
    // nothing (the sweep, reminders and payouts find nothing to do in the seed).
    WORKERS_ENABLED: "true",
    MIGRATE_ON_START: "false",
    INDEXER_URL: indexerUrl,
    // The "cached" measurements must hit the caches the warm-up filled, however long the run takes.
    STREAK_CACHE_TTL: "1h",
    EARNINGS_CACHE_TTL: "1h",
    // ... and the in-process copies in front of the database (the session, the streak), which expire after 30 s and
    // 10 s by default: on a loaded machine a run took longer, and the "cached" rows measured database reads.
    SESSION_CACHE_TTL: "1h",
    STREAK_CACHE_LOCAL_TTL: "1h",
    // The limits stay on (their cost is part of every request) but never bite: a million per second.
    RATE_LIMIT_PER_IP: "1000000",
    RATE_LIMIT_PER_ADDRESS: "1000000",
    RATE_LIMIT_WINDOW: "1s",
    ...(rateLimitRedisUrl ? { RATE_LIMIT_REDIS_URL: rateLimitRedisUrl } : {}),
  };
}

let transpiled: Promise<TranspiledApi> | undefined;
/** The API as production runs it (scripts/transpiled-api.ts), made once per bench and removed when it exits. */
function transpiledOnce(): Promise<TranspiledApi> {
  transpiled ??= transpileApi().then((api) => {
    process.once("exit", () => api.remove());
    return api;
  });
  return transpiled;
}

/**
 * Node itself on a script of the API (`args[0]`, e.g. src/server.ts) transpiled to JavaScript as the production image
 * has it, so that the PID is the server's own (and it can be profiled) and its CPU is production's, not tsx's. A script
 * outside this API (another copy's, to compare) runs through tsx's loader.
 */
export async function start(name: string, args: string[], env: Record<string, string>, nodeFlags: string[] = []): Promise<ChildProcess> {
  const [script = "", ...rest] = args;
  const source = path.relative(API_ROOT, path.resolve(API_ROOT, script));
  const program = source.startsWith("..") || path.isAbsolute(source) ? ["--import", "tsx", script] : [(await transpiledOnce()).file(source)];
  const child = spawn(process.execPath, [...nodeFlags, ...program, ...rest], {
    cwd: API_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.once("exit", (code) => {
    if (code !== null && code !== 0) console.error(`${name} exited with ${code}:\n${output.slice(-3_000)}`);
  });
  return child;
}

/**
 * Waits until `url` answers 200 or the process exits. The guard is far beyond any start seen (a replica started in
 * over 60 s at load 20 in CI): a bench's process is given the time its machine needs, not an idle machine's.
 */
export async function waitForOk(url: string, child: ChildProcess): Promise<void> {
  const guardMs = 300_000;
  const deadline = Date.now() + guardMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    if ((await fetch(url).then((r) => r.status, () => 0)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer in ${guardMs / 1000} s`);
}

/** `--name N` from the command line: a positive number, or `fallback` when absent. */
export function numberOption(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

/**
 * The name a bench gives its scratch databases (`<prefix>_<random hex>`): `--database-prefix` when given, so that
 * a shared PostgreSQL server can tell whose databases are whose, else the bench's own.
 */
export function databasePrefix(fallback: string): string {
  const index = process.argv.indexOf("--database-prefix");
  if (index < 0) return fallback;
  const prefix = process.argv[index + 1] ?? "";
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) throw new Error("--database-prefix needs a lower-case SQL name (letters, digits, _)");
  return prefix;
}

/** The PostgreSQL server the benchmarks make their databases beside (DATABASE_URL); exits with a line if there is none. */
export function postgresServerUrl(): string {
  const config = loadConfig();
  if (config.database.kind !== "postgres") {
    console.error("bench needs PostgreSQL: set DATABASE_URL (a role that may CREATE DATABASE), e.g. postgresql://oro:oro@127.0.0.1:5432/oro");
    process.exit(2);
  }
  return config.database.url;
}

/** The database at `url` migrated, and a client connected to it for the seed's SQL. */
export async function migratedClient(url: string): Promise<pg.Client> {
  const database = await openDatabase({ kind: "postgres", url });
  await database.migrate();
  await database.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** User i's wallet (0x…i) and the sign-in session the seed gives the first `sessions` users. */
export const addressOf = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
/** A token of the shape the API issues (32 bytes in base64url): another is refused without a lookup. */
export const tokenOf = (i: number) => createHash("sha256").update(`bench-session-${i}`).digest("base64url");

export interface ReferralSeed {
  users: number;
  /** Payable referrals, two claimable rewards each; the referees are the last `referrals` users. */
  referrals: number;
  /** Of those, how many user 1 made (a referrer with a long history); the rest go 5 to each referrer from user 2 on. */
  bigReferrerInvites: number;
  /** Users 1..sessions get a sign-in session (tokenOf). */
  sessions: number;
}

/** Migrates the (empty) database at `url` and seeds it in SQL; returns the seconds it took. */
export async function seedReferrals(url: string, seed: ReferralSeed): Promise<number> {
  const client = await migratedClient(url);
  const started = Date.now();
  const { users, referrals, bigReferrerInvites: big, sessions } = seed;
  const others = Math.max(1, Math.ceil((referrals - big) / 5));
  const first = big > 0 ? 2 : 1;
  // Referral r's referrer: user 1 for the first `big`, then round robin over the others.
  const referrerOf = `(CASE WHEN r <= ${big} THEN 1 ELSE ${first} + ((r - ${big} - 1) % ${others}) END)`;
  const referrers = (big > 0 ? 1 : 0) + others;
  try {
    await client.query(`
      INSERT INTO "user" (id, address, username, created_at, updated_at)
      SELECT md5('user' || i)::uuid::text, '0x' || lpad(to_hex(i), 40, '0'), 'user' || i, now(), now()
        FROM generate_series(1, ${users}) AS i`);
    // Codes from the alphabet without look-alikes: i written in base 31, eight digits.
    await client.query(`
      INSERT INTO "referral_code" (id, user_id, app, code, created_at)
      SELECT md5('code' || i)::uuid::text, md5('user' || i)::uuid::text, 'oro',
             (SELECT string_agg(substr('ABCDEFGHJKMNPQRSTUVWXYZ23456789', ((i / (31 ^ k)::bigint) % 31)::int + 1, 1), '' ORDER BY k)
                FROM generate_series(0, 7) AS k),
             now()
        FROM generate_series(1, ${referrers}) AS i`);
    // Activated one second apart, so that "newest first" is an order, not a tie.
    await client.query(`
      INSERT INTO "referral" (id, referrer_id, referee_id, referral_code_id, status, referee_nullifier_hash, referrer_nullifier_hash,
                              activated_at, created_at, updated_at)
      SELECT md5('referral' || r)::uuid::text, md5('user' || ${referrerOf})::uuid::text,
             md5('user' || (${users - referrals} + r))::uuid::text, md5('code' || ${referrerOf})::uuid::text,
             -- A payable referral names both humans, and they differ (the referral_payable_two_humans_check).
             'payable', '0x' || lpad(to_hex(${users} + r), 64, '0'), '0x' || lpad(to_hex(${referrerOf}), 64, '0'),
             now() - r * interval '1 second', now() - r * interval '1 second', now() - r * interval '1 second'
        FROM generate_series(1, ${referrals}) AS r`);
    await client.query(`
      INSERT INTO "referral_reward" (id, referral_id, side, beneficiary_id, payment_type, amount_wei, voucher_nonce, voucher_signature,
                                     chain_id, contract_address, status, created_at, updated_at)
      SELECT md5(side || r)::uuid::text, md5('referral' || r)::uuid::text, side::"RewardSide",
             CASE side WHEN 'referrer' THEN md5('user' || ${referrerOf})::uuid::text
                       ELSE md5('user' || (${users - referrals} + r))::uuid::text END,
             'claimable', CASE side WHEN 'referrer' THEN 1000000000000000000 ELSE 500000000000000000 END,
             CASE side WHEN 'referrer' THEN r ELSE ${referrals} + r END,
             '0x' || repeat('ab', 65), 31337, '${addresses[CHAIN_IDS.development].ReferralClaim}', 'claimable',
             now() - r * interval '1 second', now() - r * interval '1 second'
        FROM generate_series(1, ${referrals}) AS r, (VALUES ('referrer'), ('referee')) AS sides(side)`);
    await client.query(`
      INSERT INTO "session" (token_hash, user_id, expires_at, created_at)
      SELECT encode(sha256(convert_to(translate(rtrim(encode(sha256(convert_to('bench-session-' || i, 'UTF8')), 'base64'), '='), '+/', '-_'), 'UTF8')), 'hex'),
             md5('user' || i)::uuid::text, now() + interval '1 day', now()
        FROM generate_series(1, ${sessions}) AS i`);
    await client.query("ANALYZE");
  } finally {
    await client.end();
  }
  return (Date.now() - started) / 1000;
}

/**
 * `count` pending referrals to `referrer`, of new users `firstUser`… (wallets addressOf(i)), accepted a day ago and
 * checked a moment ago (so that the sweep leaves them alone): what the mints followed decide.
 */
export async function seedPendingReferrals(url: string, { firstUser, count, referrer }: { firstUser: number; count: number; referrer: number }): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      INSERT INTO "user" (id, address, username, created_at, updated_at)
      SELECT md5('user' || i)::uuid::text, '0x' || lpad(to_hex(i), 40, '0'), 'user' || i, now(), now()
        FROM generate_series(${firstUser}, ${firstUser + count - 1}) AS i`);
    await client.query(`
      INSERT INTO "referral" (id, referrer_id, referee_id, referral_code_id, status, accepted_at_block_time, last_checked_at, created_at, updated_at)
      SELECT md5('pending' || i)::uuid::text, md5('user' || ${referrer})::uuid::text, md5('user' || i)::uuid::text, md5('code' || ${referrer})::uuid::text,
             'pending', now() - interval '1 day', now(), now() - interval '1 day', now() - interval '1 day'
        FROM generate_series(${firstUser}, ${firstUser + count - 1}) AS i`);
    await client.query("ANALYZE");
  } finally {
    await client.end();
  }
}

export interface Measure {
  name: string;
  requests: number;
  /** Answers in the measured window (req/s × duration, as counted). */
  answered: number;
  p50: number;
  p99: number;
  errors: number;
  /** µs of the measured process's CPU (user + system) per answered request in the measured run, when a pid was given. */
  cpuMicros?: number;
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * A process's CPU time so far (user + system), in µs, from /proc/<pid>/stat (Linux). Read from outside the process,
 * so that a busy machine changes only the wall clock, not the figure: it is what the process itself spent.
 */
export function cpuMicrosOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the
  // 14th field of the line, stime the 15th, in clock ticks (USER_HZ, 100 on Linux).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Requests against `base` at `ratePerS` a second, evenly spaced (request i is due at i / rate s), as many users
 * arriving independently send them, over at most `connections` keep-alive connections; the rest wait for one. A
 * request's latency counts from when it was due, not from when a connection was free, so a server that falls behind
 * shows in the p99 (no coordinated omission). autocannon's overallRate sends each second's requests together at its
 * start: a burst a second, not users.
 */
async function paced(
  base: string,
  pick: () => { path: string; headers?: Record<string, string> },
  { connections, durationS, ratePerS }: { connections: number; durationS: number; ratePerS: number },
): Promise<{ answered: number; p50: number; p99: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(base);
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.round(ratePerS * durationS);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const { path, headers } = pick();
      const request = httpRequest({ host: url.hostname, port: url.port, path, headers, agent, timeout: 10_000 }, (response) => {
        response.resume();
        response.on("end", () => {
          if (response.statusCode !== undefined && response.statusCode < 300) latencies.push(performance.now() - dueAt);
          else errors += 1;
          resolve();
        });
      });
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", () => {
        errors += 1;
        resolve();
      });
      request.end();
    });
  for (let sent = 0; sent < total; ) {
    const now = performance.now();
    for (; sent < total && started + (sent * 1000) / ratePerS <= now; sent++) inFlight.push(send(started + (sent * 1000) / ratePerS));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const at = (share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN);
  return { answered: sorted.length, p50: at(0.5), p99: at(0.99), errors };
}

/**
 * autocannon against `base`, each request's path (and headers) from `pick`, as fast as the connections go; or, with
 * `ratePerS`, requests evenly spaced at that rate over the same connections (`paced`, above). A short warm-up first
 * (`warmUpS`, 2 s by default). With `pid`, the server process's CPU time per request over the measured run is taken as
 * well (Measure.cpuMicros).
 */
export async function measureRoute(
  name: string,
  base: string,
  pick: () => { path: string; headers?: Record<string, string> },
  { connections, durationS, pid, ratePerS, warmUpS = 2 }: { connections: number; durationS: number; pid?: number | undefined; ratePerS?: number; warmUpS?: number },
): Promise<Measure> {
  const run = async (duration: number) => {
    if (ratePerS !== undefined) return paced(base, pick, { connections, durationS: duration, ratePerS });
    const result = await autocannon({ url: base, connections, duration, requests: [{ setupRequest: (request) => ({ ...request, ...pick() }) }] });
    // result.requests.total counts the answers that arrived in the window (every request is answered or an error).
    return { answered: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
  };
  if (warmUpS > 0) await run(warmUpS);
  const cpuBefore = pid === undefined ? 0 : cpuMicrosOf(pid);
  const runStarted = performance.now();
  const { answered, p50, p99, errors } = await run(durationS);
  const seconds = (performance.now() - runStarted) / 1000;
  const cpuSpent = pid === undefined ? 0 : cpuMicrosOf(pid) - cpuBefore;
  const measured: Measure = { name, requests: answered / seconds, answered, p50, p99, errors };
  if (pid !== undefined && answered > 0) measured.cpuMicros = cpuSpent / answered;
  const cpu = measured.cpuMicros === undefined ? "" : `, ${Math.round(measured.cpuMicros)} µs CPU/request`;
  const rate = ratePerS === undefined ? "" : ` (at a set ${ratePerS} req/s)`;
  console.log(`  ${name}${rate}: ${Math.round(measured.requests)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms${cpu}${errors ? `, ${errors} errors` : ""}`);
  return measured;
}
