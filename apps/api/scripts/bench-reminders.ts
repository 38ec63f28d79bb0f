// pnpm --filter @oro/api bench (its second part) [--reminders 1000000] [--stop term|kill] [--smoke]
// A million reminders due in the same hour (shared/TARGETS.md, "Reminders"): seeded as due jobs in a fresh
// PostgreSQL database, sent by two API replicas (their reminder workers, as in production) through a stand-in for
// World's send-notification endpoint that checks every request against World's own rules, answers after 200 ms,
// and answers about one request in fifty as World does when its upstream send throttles (a 500, nothing sent, once
// World's own retries are over: about 155 s). When 40% have arrived one replica is stopped and, two seconds later,
// started again (as a deploy or the compose file's restart policy does): told to stop (SIGTERM, a deploy), then, in
// a second run, killed (SIGKILL, a crash). Prints, for each, how long they took to arrive, whether each arrived
// exactly once, and what became of the jobs the stopped replica held.
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
/** How the replica is stopped: told to (a deploy: it finishes what it sent) and killed (a crash); both unless given. */
const STOPS = {
  term: { signal: "SIGTERM", short: "told to stop" },
  kill: { signal: "SIGKILL", short: "killed" },
} as const;
type Stop = (typeof STOPS)[keyof typeof STOPS];
const stopName = (stop: Stop) => `${stop.short} (${stop.signal})`;
const stopArgument = process.argv.indexOf("--stop");
const stopsToRun: Stop[] = (() => {
  if (stopArgument < 0) return [STOPS.term, STOPS.kill];
  const value = process.argv[stopArgument + 1];
  if (value !== "term" && value !== "kill") throw new Error("--stop takes term or kill");
  return [STOPS[value]];
})();

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

async function run(stop: Stop): Promise<void> {
  const scratch = await createScratchDatabase(serverUrl, databasePrefix("oro_api_bench_reminders"));
  const indexer = fakeIndexer();
  indexer.listen(0, "127.0.0.1");
  await once(indexer, "listening");
  const world = standInForWorld({ reminders: REMINDERS, answerMs: ANSWER_MS, throttledEvery: THROTTLED_EVERY, throttledAnswerMs: THROTTLED_ANSWER_MS, appId: WORLD_APP_ID, apiKey: WORLD_API_KEY });
  world.server.listen(0, "127.0.0.1");
  await once(world.server, "listening");
  const replicas: ChildProcess[] = [];
  /** Every process started, the stopped replica among them until it has exited. */
  const processes: ChildProcess[] = [];
  /** What the replicas logged at warn or above (World's throttled answers aside), in order. */
  const logged: string[] = [];
  try {
    await seed(scratch.url);
    const ports = [await freePort(), await freePort()];
    const replicaEnv = (port: number) => ({
      NODE_ENV: "development",
      DATABASE_URL: scratch.url,
      API_PORT: String(port),
      // Warnings too: what a replica logged is printed when a reminder was lost or sent twice.
      LOG_LEVEL: "warn",
      MIGRATE_ON_START: "false",
      INDEXER_URL: `http://127.0.0.1:${(indexer.address() as AddressInfo).port}`,
      NOTIFICATIONS_TRANSPORT: "world-app",
      WORLD_APP_API_URL: `http://127.0.0.1:${(world.server.address() as AddressInfo).port}`,
      WORLD_APP_ID,
      WORLD_APP_API_KEY: WORLD_API_KEY,
      NOTIFICATION_INTERVAL: "1s",
      // A killed replica's jobs are given up (at most once) when their lease runs out; one told to stop waits for its
      // requests out (its shutdown allows WORLD_APP_TIMEOUT + 15 s: World's retries are over by then).
      NOTIFICATION_LEASE: "20s",
    });
    const startReplica = async (index: number) => {
      const port = ports[index] ?? 0;
      const name = `replica ${processes.length + 1}`;
      const child = start(name, ["src/server.ts"], replicaEnv(port));
      replicas[index] = child;
      processes.push(child);
      for (const stream of [child.stdout, child.stderr]) {
        stream?.on("data", (chunk: Buffer) => {
          for (const line of chunk.toString().split("\n")) {
            // World's throttled answers are expected (they are retried): the rest is kept for a failed run.
            if (line.trim() !== "" && !line.includes("answered 500") && logged.length < 200) logged.push(`${name}: ${line.slice(0, 600)}`);
          }
        });
      }
      await waitForOk(`http://127.0.0.1:${port}/api/health`, child);
    };
    const started = Date.now();
    await Promise.all([startReplica(0), startReplica(1)]);

    // Stop one replica when 40% have arrived; start it again two seconds later, on a port of its own (one told to
    // stop may still be finishing).
    let stoppedAt = 0;
    let stoppedExited: Promise<unknown> = Promise.resolve();
    let restartedAt = 0;
    let restart: Promise<unknown> = Promise.resolve();
    const deadline = started + (smoke ? 180_000 : 1_800_000);
    for (;;) {
      if (stoppedAt === 0 && world.received >= REMINDERS * 0.4) {
        const stopped = replicas[0];
        if (stopped) {
          stoppedExited = once(stopped, "exit");
          stopped.kill(stop.signal);
        }
        stoppedAt = Date.now();
        restart = new Promise((resolve) => setTimeout(resolve, 2_000))
          .then(async () => {
            ports[0] = await freePort();
            await startReplica(0);
          })
          .then(() => (restartedAt = Date.now()));
      }
      const counts = await statusCounts(scratch.url);
      const open = (counts.get("pending") ?? 0) + (counts.get("sending") ?? 0);
      if (open === 0 && stoppedAt > 0) break;
      if (Date.now() > deadline) throw new Error(`not done after ${((Date.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(Object.fromEntries(counts))}`);
      await new Promise((resolve) => setTimeout(resolve, smoke ? 200 : 1_000));
    }

    // The stopped replica is back (its restart policy) and has exited before the figures are read; a small run may end first.
    await restart;
    await stoppedExited;
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
    // Any other end a job came to, by name (failed: a request that may have reached World, or out of attempts).
    const otherEnds = [...counts].filter(([status]) => status !== "sent" && status !== "abandoned");
    const others = otherEnds.length === 0 ? "0" : otherEnds.map(([status, count]) => `${count.toLocaleString("en")} ${status}`).join(", ");
    const seconds = (world.lastAt - started) / 1000;
    const rows: [string, string, string, boolean | null][] = [
      ["all arrived, from the replicas' start", `${seconds.toFixed(1)} s`, `≤ ${TARGET_SECONDS} s`, seconds <= TARGET_SECONDS],
      ["arrived exactly once", `${arrivedOnce.toLocaleString("en")} of ${REMINDERS.toLocaleString("en")}`, "all", arrivedOnce === REMINDERS],
      ["arrived more than once", twice.toLocaleString("en"), "0", twice === 0],
      ["never arrived (lost)", never.toLocaleString("en"), "0", never === 0],
      ["requests refused by World's rules (400)", world.refused.length.toLocaleString("en"), "0", world.refused.length === 0],
      ["requests without an API key (401)", world.unauthorized.toLocaleString("en"), "0", world.unauthorized === 0],
      ["requests whose body never arrived (their replica stopped first: nothing sent)", world.cutOff.toLocaleString("en"), "", null],
      [`requests / throttled, answered 500 after ${(THROTTLED_ANSWER_MS / 1000).toFixed(1)} s (retried after backoff)`, `${world.requests.toLocaleString("en")} / ${world.throttled.toLocaleString("en")}`, "", null],
      [`jobs: sent / abandoned by the replica ${stop.short} / other`, `${(counts.get("sent") ?? 0).toLocaleString("en")} / ${abandoned.toLocaleString("en")} / ${others}`, "", null],
      [`replica ${stop.short} at / back at (from the start)`, `${((stoppedAt - started) / 1000).toFixed(1)} s / ${restartedAt ? `${((restartedAt - started) / 1000).toFixed(1)} s` : "not yet"}`, "", null],
    ];
    console.log(`\n${REMINDERS.toLocaleString("en")} reminders due at once, two API replicas, one ${stopName(stop)} on the way, World stand-in answering in ${ANSWER_MS} ms, World's upstream throttling every ${THROTTLED_EVERY}th request (a 500 once World's retries are over)${smoke ? " (smoke size: figures meaningless)" : ""}`);
    console.log("| figure | measured | target | met |\n|---|---|---|---|");
    for (const [figure, measured, target, met] of rows) {
      console.log(`| ${figure} | ${measured} | ${target} | ${met === null ? "—" : met ? "yes" : "NO"} |`);
      recordBenchFigure({ bench: "@oro/api", figure: `reminders, a replica ${stopName(stop)}: ${figure}`, measured, target, met });
    }
    if (world.refused.length > 0) console.log(`World would refuse: ${world.refused[0]}`);
    if (stop === STOPS.kill) {
      console.log("The killed replica's jobs in flight are abandoned, never sent again (World de-duplicates nothing); those whose");
      console.log("request World had already accepted count as arrived above: a reminder is lost only if it never reached World.");
    } else {
      console.log("The replica told to stop leased nothing more and waited for World's answers to its requests out before it exited.");
    }
    if (twice > 0 || never > 0 || world.refused.length > 0 || world.unauthorized > 0) {
      process.exitCode = 1;
      console.log(`What the replicas logged (warnings and errors, World's throttled answers aside):\n${logged.join("\n") || "(nothing)"}`);
    }
  } finally {
    const running = processes.filter((child) => child.exitCode === null && child.signalCode === null);
    const exited = running.map((child) => once(child, "exit"));
    for (const child of running) child.kill("SIGTERM");
    await Promise.all(exited);
    indexer.close();
    world.server.close();
    await scratch.drop();
  }
}

for (const stop of stopsToRun) await run(stop);
