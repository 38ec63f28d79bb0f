// How long `pnpm start` takes to be ready, as a newcomer meets it: `pnpm --filter @oro/dev-stack bench`.
// Clones this repository's HEAD into a temporary folder, installs it (the README's install command), then runs the
// README's start command twice on free ports: first on the fresh clone (everything is built), then again (the
// build replayed from Turborepo's cache). Each run is timed from the command's launch to its "Ready in" line,
// checked by opening the URL it prints, then stopped with SIGINT to its process group (what Ctrl-C sends), timed
// until it exits, and its ports checked free. Prints the figures beside the target. Needs only Node.js, npm and
// git; BENCH_RUNS sets the number of warm runs (default 1; the smoke run of `pnpm bench` sets 0: a warm start is the
// same start, which the dev stack's own tests already make twice). Nothing in the working tree is touched.
// BENCH_BUILD_CACHE names a Turborepo cache folder (this checkout's .turbo/cache) that the clone's builds replay from:
// the smoke run of `pnpm bench` uses it (its figures are meaningless anyway; CI's own run builds the fresh clone), so
// that it checks this script, the install and the start without building everything a second time.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_REFERENCES } from "@oro/clients";
import { recordBenchFigure } from "../dist/index.js";

const TARGET_SECONDS = BENCH_REFERENCES.devStack.startSecondsMax;
const PNPM = ["--yes", "pnpm@10.34.9"];
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const warmRuns = Math.max(0, Math.floor(Number(process.env.BENCH_RUNS ?? 1)) || 0);
const buildCache = process.env.BENCH_BUILD_CACHE && existsSync(process.env.BENCH_BUILD_CACHE) ? resolve(process.env.BENCH_BUILD_CACHE) : undefined;

const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
const commit = git("rev-parse", "--short", "HEAD");
if (git("status", "--porcelain", "--untracked-files=no") !== "") {
  console.log(`note: the working tree has uncommitted changes; this measures the commit ${commit}, not them.`);
}

/** `count` ports free at once: each held open until all are picked, so the OS cannot hand one out twice. */
async function freePorts(count) {
  const servers = [];
  for (let index = 0; index < count; index += 1) {
    const server = createServer();
    await new Promise((resolveListen, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolveListen);
    });
    servers.push(server);
  }
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolveClose) => server.close(resolveClose))));
  return ports;
}

function portFree(port) {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once("error", () => resolvePort(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolvePort(true)));
  });
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(" / ");

const scratch = mkdtempSync(join(tmpdir(), "oro-bench-start-"));
const clone = join(scratch, "oro");
let current;
/** Stops a stack still running (SIGINT, as Ctrl-C: it stops its services' groups too), then deletes the clone. */
async function cleanUp() {
  if (current && current.exitCode === null && current.signalCode === null) {
    const gone = new Promise((resolveExit) => current.once("exit", resolveExit));
    const signal = (name) => {
      try {
        process.kill(-current.pid, name);
      } catch {
        // already gone
      }
    };
    signal("SIGINT");
    await Promise.race([gone, new Promise((resolveWait) => setTimeout(resolveWait, 30_000))]);
    signal("SIGKILL");
  }
  rmSync(scratch, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    void cleanUp().then(() => process.exit(130));
  });
}

/** One `pnpm start`: launch → "Ready in" → URL answers → SIGINT → exit, on ports of its own. */
async function startOnce(label) {
  const variables = ["CHAIN_PORT", "INDEXER_PORT", "API_PORT", "WEB_PORT", "SIMULATOR_PORT"];
  const picked = await freePorts(variables.length);
  const ports = Object.fromEntries(variables.map((variable, index) => [variable, String(picked[index])]));
  const loadBefore = load();
  const launchedAt = performance.now();
  const child = spawn("npx", [...PNPM, "start"], {
    cwd: clone,
    env: { ...process.env, ...ports, STACK_DIR: join(scratch, "stack"), FORCE_COLOR: "0", DATABASE_URL: "", ...(buildCache ? { TURBO_CACHE_DIR: buildCache } : {}) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  current = child;
  let output = "";
  // Done when npx has exited and the stack under it too (the last writer of the output pipe closes it).
  const exited = Promise.all([
    new Promise((resolveExit) => child.on("exit", (code, signal) => resolveExit({ code, signal }))),
    new Promise((resolveEnd) => child.stdout.on("end", resolveEnd)),
  ]).then(([status]) => status);
  const ready = new Promise((resolveReady, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /Ready in (\d+(?:\.\d+)?) s\. Open (\S+)/.exec(output);
      if (match) resolveReady({ printed: Number(match[1]), url: match[2], at: performance.now() });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(({ code }) => reject(new Error(`${label}: pnpm start exited (${code}) before it was ready:\n${output.slice(-3_000)}`)));
  });
  const { printed, url, at } = await ready;
  const wall = (at - launchedAt) / 1000;
  const page = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  if (!page.ok) throw new Error(`${label}: ${url} answered ${page.status}`);
  await page.body?.cancel();

  const stopAt = performance.now();
  process.kill(-child.pid, "SIGINT");
  const { code, signal } = await exited;
  const stopSeconds = (performance.now() - stopAt) / 1000;
  const busy = [];
  for (const [variable, port] of Object.entries(ports)) if (!(await portFree(Number(port)))) busy.push(`${variable}=${port}`);
  // npx itself may die of the SIGINT (as in a terminal); the stack under it must say it stopped everything.
  const stopped = /\nStopped\.\n/.test(output) && (code === 0 || signal === "SIGINT");
  if (!stopped) throw new Error(`${label}: the stack did not stop cleanly on SIGINT (${code ?? signal}):\n${output.slice(-3_000)}`);
  if (busy.length > 0) throw new Error(`${label}: ports still taken after the stop: ${busy.join(", ")}`);
  return { label, wall, printed, stopSeconds, loadBefore };
}

try {
  console.log(`Cloning ${commit} into ${clone} …`);
  execFileSync("git", ["clone", "--quiet", root, clone]);
  console.log("Installing (npx --yes pnpm@10.34.9 install) …");
  const installAt = performance.now();
  execFileSync("npx", [...PNPM, "install", "--frozen-lockfile"], { cwd: clone, stdio: "ignore" });
  const installSeconds = (performance.now() - installAt) / 1000;

  const runs = [];
  const first = buildCache ? `first start on a fresh clone (its build replayed from ${buildCache}: not a figure)` : "first start on a fresh clone (builds everything)";
  console.log(`Starting on the fresh clone (${buildCache ? `builds replayed from ${buildCache}` : "builds everything"}) …`);
  runs.push(await startOnce(first));
  for (let run = 1; run <= warmRuns; run += 1) {
    console.log(`Starting again (${run} of ${warmRuns}, build from Turborepo's cache) …`);
    runs.push(await startOnce(`start again (build from Turborepo's cache)${warmRuns > 1 ? ` #${run}` : ""}`));
  }

  const rows = [
    ["pnpm start, launch to ready", "launch → ready", "printed", "stop (SIGINT)", "target", "met", "load before (1/5/15 min)"],
    ...runs.map((run) => [
      run.label,
      `${run.wall.toFixed(1)} s`,
      `${run.printed.toFixed(1)} s`,
      `${run.stopSeconds.toFixed(1)} s`,
      `≤ ${TARGET_SECONDS} s`,
      run.wall <= TARGET_SECONDS ? "yes" : "NO",
      run.loadBefore,
    ]),
  ];
  for (const run of runs) {
    recordBenchFigure({ bench: "@oro/dev-stack", figure: `pnpm start, ${run.label}`, measured: `${run.wall.toFixed(1)} s`, target: `≤ ${TARGET_SECONDS} s`, met: run.wall <= TARGET_SECONDS });
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log();
  console.log(`Commit ${commit} on ${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), Node.js ${process.version}; install took ${installSeconds.toFixed(1)} s.`);
  for (const [index, row] of rows.entries()) {
    console.log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("   ")}`);
    if (index === 0) console.log(`  ${widths.map((width) => "─".repeat(width)).join("   ")}`);
  }
  console.log();
  console.log('"launch → ready": from launching the README\'s start command to its "Ready in" line (npx included);');
  console.log('"printed": the figure the command itself prints. Every port was free again after each stop.');
  await cleanUp();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await cleanUp();
  process.exit(1);
}
