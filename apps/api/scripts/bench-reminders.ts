// pnpm --filter @oro/api bench (its second part) [--reminders 1000000] [--stop term|kill] [--smoke]
// A million reminders due in the same hour (shared/TARGETS.md, "Reminders"): seeded as due jobs in a fresh
// PostgreSQL database, sent by two API replicas (their reminder workers, as in production) through a stand-in for
// World's send-notification endpoint (scripts/world-stand-in.ts: World's route, its rules and timing) whose users'
// World Apps are set to each of World's 19 languages and some it lacks. It answers after 200 ms; one request in fifty
// finds World's upstream throttling (a 500 once World's own retries are over, about 155 s: nothing sent) and one in a
// hundred finds it silent (a 500 after about 203 s: it delivered). A 500 says nothing of what was sent, so those
// reminders end `unknown`, never sent again. When 40% have arrived one replica is stopped and, two seconds later,
// started again (as a deploy or the compose file's restart policy does): told to stop (SIGTERM, a deploy), then, in a
// second run, killed (SIGKILL, a crash). Prints, for each: how long until every reminder was settled, how many were
// sent, unknown and lost, whether any arrived twice or undelivered for want of the user's language.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { recordBenchFigure } from "@oro/dev-stack";
import pg from "pg";
import { languageOfTag } from "@oro/clients";
import { createScratchDatabase } from "../src/db/scratch.js";
import { DEVICE_LANGUAGES, standInForWorld, worldApiKey, worldThrottledAnswerMs } from "./world-stand-in.js";
import { WORLD_UPSTREAM_TRY_TIMEOUT_MS } from "../src/services/notifications/world-route.js";
import { databasePrefix, fakeIndexer, migratedClient, freePort, postgresServerUrl, start, waitForOk, numberOption as option } from "./bench-support.js";

const smoke = process.argv.includes("--smoke");
const REMINDERS = option("reminders", smoke ? 3_000 : 1_000_000);
const ANSWER_MS = option("answer-ms", 200);
/** Every n-th request finds World's upstream throttling: World answers it 500 (never 429) and sends nothing. */
const THROTTLED_EVERY = option("throttled-every", 50);
/** When World answers a throttled request: after its own retries, as World does (about 155 s), unless given. */
const THROTTLED_ANSWER_MS = option("throttled-answer-ms", worldThrottledAnswerMs(ANSWER_MS));
/** Every n-th request finds World's upstream silent: World answers 500 after its tries time out, and it delivered. */
const SILENT_EVERY = option("silent-every", 100);
const SILENT_ANSWER_MS = option("silent-answer-ms", worldThrottledAnswerMs(WORLD_UPSTREAM_TRY_TIMEOUT_MS));
/** The app and its API key World knows in the stand-in (the replicas are given the same). */
const WORLD_APP_ID = "app_oro_reminders_bench";
const WORLD_API_KEY = worldApiKey("key_bench", "bench-secret");
const TARGET_SECONDS = 600;
/** The language each user chose in the mini app: their World App's, as the product's eight read it (English else). */
const CHOSEN = DEVICE_LANGUAGES.map((language) => languageOfTag(language) ?? "en");
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

/** Reminder `i` (1..N) is due for the address 0x…i, in the language its user chose, some time in the last hour. */
async function seed(url: string): Promise<void> {
  const client = await migratedClient(url);
  const started = Date.now();
  await client.query(`
    INSERT INTO "notification_job" (id, kind, address, locale, due_at, status, attempts, created_at, updated_at)
    SELECT md5('job' || i)::uuid::text, 'oro_claim', '0x' || lpad(to_hex(i), 40, '0'),
           (ARRAY['${CHOSEN.join("','")}'])[1 + i % ${CHOSEN.length}],
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

/** Jobs recorded sent whose address never reached the stand-in. */
async function sentButNeverArrived(url: string, arrivals: Uint8Array): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let lost = 0;
    // Read in pages of 100,000 addresses (a million rows at once would be held in memory twice).
    for (let after = ""; ; ) {
      const { rows } = await client.query<{ address: string }>(`SELECT address FROM "notification_job" WHERE status = 'sent' AND address > $1 ORDER BY address LIMIT 100000`, [after]);
      for (const { address } of rows) if ((arrivals[Number.parseInt(address.slice(2), 16)] ?? 0) === 0) lost += 1;
      const last = rows.at(-1);
      if (!last) return lost;
      after = last.address;
    }
  } finally {
    await client.end();
  }
}

async function run(stop: Stop): Promise<void> {
  const scratch = await createScratchDatabase(serverUrl, databasePrefix("oro_api_bench_reminders"));
  const indexer = fakeIndexer();
  indexer.listen(0, "127.0.0.1");
  await once(indexer, "listening");
  const world = standInForWorld({
    reminders: REMINDERS,
    answerMs: ANSWER_MS,
    throttledEvery: THROTTLED_EVERY,
    throttledAnswerMs: THROTTLED_ANSWER_MS,
    silentEvery: SILENT_EVERY,
    silentAnswerMs: SILENT_ANSWER_MS,
    appId: WORLD_APP_ID,
    apiKey: WORLD_API_KEY,
  });
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
      const child = await start(name, ["src/server.ts"], replicaEnv(port));
      replicas[index] = child;
      processes.push(child);
      for (const stream of [child.stdout, child.stderr]) {
        stream?.on("data", (chunk: Buffer) => {
          for (const line of chunk.toString().split("\n")) {
            // World's 500s are expected (their reminders end unknown): the rest is kept for a failed run.
            if (line.trim() !== "" && !line.includes("answered 500") && !line.includes("may or may not have reached") && logged.length < 200) logged.push(`${name}: ${line.slice(0, 600)}`);
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
    let twice = 0;
    for (let index = 1; index <= REMINDERS; index += 1) if ((world.arrivals[index] ?? 0) > 1) twice += 1;
    const sent = counts.get("sent") ?? 0;
    const unknown = counts.get("unknown") ?? 0;
    const abandoned = counts.get("abandoned") ?? 0;
    // A job recorded sent whose reminder never reached the stand-in would be a reminder lost.
    const lost = await sentButNeverArrived(scratch.url, world.arrivals);
    // Any other end a job came to, by name (failed: out of attempts, or a request World would refuse).
    const otherEnds = [...counts].filter(([status]) => !["sent", "unknown", "abandoned"].includes(status));
    const others = otherEnds.length === 0 ? "0" : otherEnds.map(([status, count]) => `${count.toLocaleString("en")} ${status}`).join(", ");
    // World's 500s: those throttled sent nothing, those silent delivered; either way the API cannot know, so unknown.
    const unknownExpected = (world.throttled + world.silent) * 1_000;
    const seconds = (world.lastAt - started) / 1000;
    const lostName = stop === STOPS.term ? "lost: abandoned by the replica told to stop (SIGTERM)" : "left unknown by the killed replica (SIGKILL): its requests in flight";
    // NOTIFICATION_CONCURRENCY (8) requests of 1,000 out at once: what a replica can have in flight when it dies.
    const inFlight = 8 * 1_000;
    const lostTarget = stop === STOPS.term ? "0" : `≤ ${inFlight.toLocaleString("en")} (its requests out)`;
    const rows: [string, string, string, boolean | null][] = [
      ["every reminder settled (sent or unknown), from the replicas' start", `${seconds.toFixed(1)} s`, `≤ ${TARGET_SECONDS} s`, seconds <= TARGET_SECONDS],
      ["sent (World answered: delivered to each user in their World App's language)", `${sent.toLocaleString("en")} of ${REMINDERS.toLocaleString("en")}`, "", null],
      [`unknown (World answered 500: ${world.throttled.toLocaleString("en")} throttled, nothing sent; ${world.silent.toLocaleString("en")} silent, delivered)`, unknown.toLocaleString("en"), `≤ ${unknownExpected.toLocaleString("en")}`, unknown <= unknownExpected],
      [lostName, abandoned.toLocaleString("en"), lostTarget, stop === STOPS.term ? abandoned === 0 : abandoned <= inFlight],
      ["arrived more than once", twice.toLocaleString("en"), "0", twice === 0],
      ["recorded sent, never arrived (lost)", lost.toLocaleString("en"), "0", lost === 0],
      ["not delivered: no text in the user's World App language", world.notDelivered.toLocaleString("en"), "0", world.notDelivered === 0],
      ["requests refused by World (4xx)", world.refused.length.toLocaleString("en"), "0", world.refused.length === 0],
      ["requests without an API key (401)", world.unauthorized.toLocaleString("en"), "0", world.unauthorized === 0],
      ["requests whose body never arrived (their replica stopped first: nothing sent, sent again)", world.cutOff.toLocaleString("en"), "", null],
      [`requests / throttled (500 after ${(THROTTLED_ANSWER_MS / 1000).toFixed(1)} s) / silent (500 after ${(SILENT_ANSWER_MS / 1000).toFixed(1)} s)`, `${world.requests.toLocaleString("en")} / ${world.throttled.toLocaleString("en")} / ${world.silent.toLocaleString("en")}`, "", null],
      ["jobs that ended otherwise", others, "0", otherEnds.length === 0],
      [`replica ${stop.short} at / back at (from the start)`, `${((stoppedAt - started) / 1000).toFixed(1)} s / ${restartedAt ? `${((restartedAt - started) / 1000).toFixed(1)} s` : "not yet"}`, "", null],
    ];
    console.log(`\n${REMINDERS.toLocaleString("en")} reminders due at once, two API replicas, one ${stopName(stop)} on the way, World stand-in answering in ${ANSWER_MS} ms, its upstream throttling every ${THROTTLED_EVERY}th request and silent every ${SILENT_EVERY}th (World answers both 500 once its retries are over), users' World Apps in ${DEVICE_LANGUAGES.length} languages${smoke ? " (smoke size: figures meaningless)" : ""}`);
    console.log("| figure | measured | target | met |\n|---|---|---|---|");
    for (const [figure, measured, target, met] of rows) {
      console.log(`| ${figure} | ${measured} | ${target} | ${met === null ? "—" : met ? "yes" : "NO"} |`);
      recordBenchFigure({ bench: "@oro/api", figure: `reminders, a replica ${stopName(stop)}: ${figure}`, measured, target, met });
    }
    if (world.refused.length > 0) console.log(`World would refuse: ${world.refused[0]}`);
    if (stop === STOPS.kill) {
      console.log("The killed replica's jobs in flight are abandoned, never sent again (World de-duplicates nothing): their fate is unknown.");
    } else {
      console.log("The replica told to stop leased nothing more and waited for World's answers to its requests out before it exited.");
    }
    if (rows.some(([, , , met]) => met === false)) {
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
