// pnpm --filter @oro/api bench (its second part) [--reminders 1000000] [--smoke]
// A million reminders due in the same hour (shared/TARGETS.md, "Reminders"): seeded as due jobs in a fresh
// PostgreSQL database, sent by two API replicas (their reminder workers, as in production) through a stand-in for
// World's send-notification endpoint that checks every request against World's own rules, answers after 200 ms,
// and answers about one request in fifty as World does when its upstream send throttles (a 500, nothing sent, once
// World's own retries are over: about 155 s). One replica is killed (SIGKILL) when 40% have arrived and started
// again, as the compose file's restart policy does. Prints how long they took to arrive, whether each arrived
// exactly once, and what became of the jobs the killed replica held.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { recordBenchFigure } from "@oro/dev-stack";
import pg from "pg";
import { createScratchDatabase } from "../src/db/scratch.js";
import { standInForWorld, worldApiKey, worldThrottledAnswerMs } from "./world-stand-in.js";
import { databasePrefix, fakeIndexer, migratedClient, freePort, postgresServerUrl, start, waitForOk, numberOption as option } from "./bench-support.js";

const smoke = process.argv.includes("--smoke");
const REMINDERS = option("reminders", smoke ? 3_000 : 1_000_000);
const ANSWER_MS = option("answer-ms", 200);
/** Every n-th request finds World's upstream throttling: World answers it 500 (never 429) and sends nothing. */
const THROTTLED_EVERY = option("throttled-every", 50);
/** When World answers a throttled request: after its own retries, as World does (about 155 s), unless given. */
const THROTTLED_ANSWER_MS = option("throttled-answer-ms", worldThrottledAnswerMs(ANSWER_MS));
/** The app and its API key World knows in the stand-in (the replicas are given the same). */
const WORLD_APP_ID = "app_oro_reminders_bench";
const WORLD_API_KEY = worldApiKey("key_bench", "bench-secret");
const TARGET_SECONDS = 600;
const LANGUAGES = ["en", "es", "fil", "id", "ja", "ko", "pt", "th"];

const serverUrl = postgresServerUrl();

/** Reminder `i` (1..N) is due for the address 0x…i, in one of the app's languages, some time in the last hour. */
async function seed(url: string): Promise<void> {
  const client = await migratedClient(url);
  const started = Date.now();
  await client.query(`
    INSERT INTO "notification_job" (id, kind, address, locale, due_at, status, attempts, created_at, updated_at)
    SELECT md5('job' || i)::uuid::text, 'oro_claim', '0x' || lpad(to_hex(i), 40, '0'),
           (ARRAY['${LANGUAGES.join("','")}'])[1 + i % ${LANGUAGES.length}],
           now() - (i % 3600) * interval '1 second', 'pending', 0, now(), now()
      FROM generate_series(1, ${REMINDERS}) AS i`);
  await client.query("ANALYZE");
  await client.end();
  console.log(`seeded ${REMINDERS.toLocaleString("en")} due reminders in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function statusCounts(url: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string; count: number }>(`SELECT status, count(*)::int AS count FROM "notification_job" GROUP BY status`);
    return new Map(rows.map((row) => [row.status, row.count]));
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const scratch = await createScratchDatabase(serverUrl, databasePrefix("oro_api_bench_reminders"));
  const indexer = fakeIndexer();
  indexer.listen(0, "127.0.0.1");
  await once(indexer, "listening");
  const world = standInForWorld({ reminders: REMINDERS, answerMs: ANSWER_MS, throttledEvery: THROTTLED_EVERY, throttledAnswerMs: THROTTLED_ANSWER_MS, appId: WORLD_APP_ID, apiKey: WORLD_API_KEY });
  world.server.listen(0, "127.0.0.1");
  await once(world.server, "listening");
  const replicas: ChildProcess[] = [];
  try {
    await seed(scratch.url);
    const ports = [await freePort(), await freePort()];
    const replicaEnv = (port: number) => ({
      NODE_ENV: "development",
      DATABASE_URL: scratch.url,
      API_PORT: String(port),
      LOG_LEVEL: "error",
      MIGRATE_ON_START: "false",
      INDEXER_URL: `http://127.0.0.1:${(indexer.address() as AddressInfo).port}`,
      NOTIFICATIONS_TRANSPORT: "world-app",
      WORLD_APP_API_URL: `http://127.0.0.1:${(world.server.address() as AddressInfo).port}`,
      WORLD_APP_ID,
      WORLD_APP_API_KEY: WORLD_API_KEY,
      NOTIFICATION_INTERVAL: "1s",
      // A killed replica's jobs are given up (at most once) when their lease runs out.
      NOTIFICATION_LEASE: "20s",
    });
    const startReplica = async (index: number) => {
      const port = ports[index] ?? 0;
      const child = start(`replica ${index + 1}`, ["src/server.ts"], replicaEnv(port));
      replicas[index] = child;
      await waitForOk(`http://127.0.0.1:${port}/api/health`, child);
    };
    const started = Date.now();
    await Promise.all([startReplica(0), startReplica(1)]);

    // Kill one replica when 40% have arrived; start it again two seconds later.
    let killedAt = 0;
    let restartedAt = 0;
    let restart: Promise<unknown> = Promise.resolve();
    const deadline = started + (smoke ? 180_000 : 1_800_000);
    for (;;) {
      if (killedAt === 0 && world.received >= REMINDERS * 0.4) {
        replicas[0]?.kill("SIGKILL");
        killedAt = Date.now();
        restart = new Promise((resolve) => setTimeout(resolve, 2_000)).then(() => startReplica(0)).then(() => (restartedAt = Date.now()));
      }
      const counts = await statusCounts(scratch.url);
      const open = (counts.get("pending") ?? 0) + (counts.get("sending") ?? 0);
      if (open === 0 && killedAt > 0) break;
      if (Date.now() > deadline) throw new Error(`not done after ${((Date.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(Object.fromEntries(counts))}`);
      await new Promise((resolve) => setTimeout(resolve, smoke ? 200 : 1_000));
    }

    // The killed replica is back (its restart policy) before the figures are read; a small run may end first.
    await restart;
    const counts = await statusCounts(scratch.url);
    let arrivedOnce = 0;
    let twice = 0;
    let never = 0;
    for (let index = 1; index <= REMINDERS; index += 1) {
      const arrivals = world.arrivals[index] ?? 0;
      if (arrivals === 1) arrivedOnce += 1;
      else if (arrivals > 1) twice += 1;
      else never += 1;
    }
    const abandoned = counts.get("abandoned") ?? 0;
    const seconds = (world.lastAt - started) / 1000;
    const rows: [string, string, string, boolean | null][] = [
      ["all arrived, from the replicas' start", `${seconds.toFixed(1)} s`, `≤ ${TARGET_SECONDS} s`, seconds <= TARGET_SECONDS],
      ["arrived exactly once", `${arrivedOnce.toLocaleString("en")} of ${REMINDERS.toLocaleString("en")}`, "all", arrivedOnce === REMINDERS],
      ["arrived more than once", twice.toLocaleString("en"), "0", twice === 0],
      ["never arrived (lost)", never.toLocaleString("en"), "0", never === 0],
      ["requests refused by World's rules (400)", world.refused.length.toLocaleString("en"), "0", world.refused.length === 0],
      ["requests without an API key (401)", world.unauthorized.toLocaleString("en"), "0", world.unauthorized === 0],
      ["requests whose body never arrived (their replica killed first: nothing sent)", world.cutOff.toLocaleString("en"), "", null],
      [`requests / throttled, answered 500 after ${(THROTTLED_ANSWER_MS / 1000).toFixed(1)} s (retried after backoff)`, `${world.requests.toLocaleString("en")} / ${world.throttled.toLocaleString("en")}`, "", null],
      ["jobs: sent / abandoned by the killed replica / other", `${(counts.get("sent") ?? 0).toLocaleString("en")} / ${abandoned.toLocaleString("en")} / ${(REMINDERS - (counts.get("sent") ?? 0) - abandoned).toLocaleString("en")}`, "", null],
      ["replica killed at / back at (from the start)", `${((killedAt - started) / 1000).toFixed(1)} s / ${restartedAt ? `${((restartedAt - started) / 1000).toFixed(1)} s` : "not yet"}`, "", null],
    ];
    console.log(`\n${REMINDERS.toLocaleString("en")} reminders due at once, two API replicas, World stand-in answering in ${ANSWER_MS} ms, World's upstream throttling every ${THROTTLED_EVERY}th request (a 500 once World's retries are over)${smoke ? " (smoke size: figures meaningless)" : ""}`);
    console.log("| figure | measured | target | met |\n|---|---|---|---|");
    for (const [figure, measured, target, met] of rows) {
      console.log(`| ${figure} | ${measured} | ${target} | ${met === null ? "—" : met ? "yes" : "NO"} |`);
      recordBenchFigure({ bench: "@oro/api", figure: `reminders: ${figure}`, measured, target, met });
    }
    if (world.refused.length > 0) console.log(`World would refuse: ${world.refused[0]}`);
    console.log("The killed replica's jobs in flight are abandoned, never sent again (World de-duplicates nothing); those whose");
    console.log("request World had already accepted count as arrived above: a reminder is lost only if it never reached World.");
    if (twice > 0 || never > 0 || world.refused.length > 0 || world.unauthorized > 0) process.exitCode = 1;
  } finally {
    const running = replicas.filter((child) => child.exitCode === null && child.signalCode === null);
    const exited = running.map((child) => once(child, "exit"));
    for (const child of running) child.kill("SIGTERM");
    await Promise.all(exited);
    indexer.close();
    world.server.close();
    await scratch.drop();
  }
}

await main();
