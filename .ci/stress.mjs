// pnpm test:stress [--runs 3] [--packages @oro/api,@oro/web] [--busy 2] [--here] [--keep]
//
// The flake hunt: every package's test suite, one package at a time, --runs times, with --busy CPU-bound loops
// running beside it (the load a shared CI machine has), on a fresh clone of the last commit (installed and built as
// CI does), and one line per suite and run: passed or failed, the counts and the duration, and the failed tests by
// name. With DATABASE_URL set, the API's suite runs each database test on PGlite and again on PostgreSQL (its vitest
// projects "pglite" and "postgres"); without it, on PGlite only, and the script says so.
// --here runs in this checkout instead of a clone (uncommitted changes included); --keep keeps the clone.
// Exits non-zero when any run of any suite failed. Each run's whole output is kept in the folder printed at the end.
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { countTests, failureLines } from "./test-counts.mjs";

const PNPM = ["--yes", "pnpm@10.34.9"];
const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}
const runs = Number(option("runs", "3"));
const busyLoops = Number(option("busy", "2"));
const here = process.argv.includes("--here");
const keep = process.argv.includes("--keep");
const only = option("packages", "")
  .split(",")
  .filter(Boolean);
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs needs a whole number, 1 or more");
if (!Number.isInteger(busyLoops) || busyLoops < 0) throw new Error("--busy needs a whole number, 0 or more");

const env = {
  ...process.env,
  CI: "true",
  TURBO_TELEMETRY_DISABLED: "1",
  PONDER_TELEMETRY_DISABLED: "true",
  FORCE_COLOR: "0",
  NO_COLOR: "1",
};

/** Started processes (each the leader of its own group), stopped by their group on the way out, whatever happens. */
const started = new Set();
function stopAll() {
  for (const pid of started) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  started.clear();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    console.log(`\nstress: ${signal}: stopping what it started`);
    stopAll();
    process.exit(130);
  });
}
process.on("exit", stopAll);

/** Runs a command in its own process group, its output into `logFile`; resolves with its exit code and duration. */
function run(command, args, cwd, logFile) {
  const began = performance.now();
  return new Promise((resolveRun) => {
    const out = createWriteStream(logFile);
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    started.add(child.pid);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on("close", (code, signal) => {
      started.delete(child.pid);
      out.end(() => resolveRun({ code: code ?? (signal ? 1 : 0), seconds: (performance.now() - began) / 1000 }));
    });
  });
}

const logs = mkdtempSync(join(tmpdir(), "oro-stress-logs-"));
let checkout = repo;
if (!here) {
  const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: repo, encoding: "utf8" }).trim();
  if (dirty) console.log("stress: uncommitted changes are not in the clone (the last commit runs); --here runs this checkout");
  const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
  checkout = mkdtempSync(join(tmpdir(), "oro-stress-"));
  execFileSync("git", ["clone", "--quiet", "--no-checkout", repo, checkout]);
  execFileSync("git", ["checkout", "--quiet", commit], { cwd: checkout });
  console.log(`stress: fresh clone of ${commit.slice(0, 7)} in ${checkout}`);
  for (const [step, args] of [
    ["install", [...PNPM, "install"]],
    // The web app's own build is a production build, refused until World Chain has a deployment (the deploy package's
    // build needs it): the web's tests and the stack make rehearsal builds of their own, as under `pnpm test`.
    ["build", [...PNPM, "turbo", "run", "build", "--filter=!@oro/web", "--filter=!@oro/deploy", "--output-logs=errors-only"]],
  ]) {
    const { code, seconds } = await run("npx", args, checkout, join(logs, `${step}.log`));
    console.log(`stress: ${step} ${code === 0 ? "done" : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
    if (code !== 0) {
      console.log(readFileSync(join(logs, `${step}.log`), "utf8").split("\n").slice(-30).join("\n"));
      process.exit(1);
    }
  }
}

/** Every workspace package with a test script, in a fixed order (the contracts first: other suites read their build). */
const packages = ["contracts", ...["apps", "packages"].flatMap((folder) => readdirSync(join(checkout, folder)).map((name) => `${folder}/${name}`))]
  .filter((folder) => existsSync(join(checkout, folder, "package.json")))
  .map((folder) => JSON.parse(readFileSync(join(checkout, folder, "package.json"), "utf8")))
  .filter((manifest) => manifest.scripts?.test && (only.length === 0 || only.includes(manifest.name)))
  .map((manifest) => manifest.name);
if (only.some((name) => !packages.includes(name))) throw new Error(`no such package with tests: ${only.filter((name) => !packages.includes(name)).join(", ")}`);

console.log(
  `stress: ${packages.length} suites × ${runs} runs, one suite at a time, beside ${busyLoops} busy loops; ` +
    `${cpus().length} cores, load ${loadavg().map((value) => value.toFixed(1)).join(" / ")}; ` +
    (env.DATABASE_URL ? "the API on PGlite and PostgreSQL (DATABASE_URL)" : "DATABASE_URL is not set: the API on PGlite only"),
);
for (let loop = 0; loop < busyLoops; loop += 1) {
  const busy = spawn("bash", ["-c", "while :; do :; done"], { detached: true, stdio: "ignore" });
  started.add(busy.pid);
  busy.unref();
}

const results = [];
for (let round = 1; round <= runs; round += 1) {
  for (const name of packages) {
    const logFile = join(logs, `${name.replace(/[@/]/g, "_")}.run${round}.log`);
    const load = loadavg()[0];
    // Through Turborepo as CI runs it (its environment filter passes DATABASE_URL to the API's suite only), without
    // the task's dependencies: they were built above, and the other suites' runs are this loop's business.
    const { code, seconds } = await run("npx", [...PNPM, "turbo", "run", "test", `--filter=${name}`, "--only", "--output-logs=full"], checkout, logFile);
    const output = readFileSync(logFile, "utf8");
    const { passed, failed } = countTests(output);
    const ok = code === 0 && failed === 0;
    results.push({ name, round, ok, passed, failed, seconds });
    console.log(
      `${ok ? "pass" : "FAIL"}  run ${round}  ${name.padEnd(16)} ${String(passed).padStart(5)} passed ${String(failed).padStart(3)} failed` +
        `  ${seconds.toFixed(0).padStart(5)} s  (load ${load.toFixed(1)} at its start${code !== 0 && failed === 0 ? `, exit ${code}` : ""})`,
    );
    if (!ok) {
      const named = failureLines(output);
      for (const line of (named.length > 0 ? named : output.trimEnd().split("\n").slice(-15)).slice(0, 20)) console.log(`        ${line.trim().slice(0, 240)}`);
      console.log(`        (whole output: ${logFile})`);
    }
  }
}
stopAll();

console.log(`\nstress: per suite, ${runs} runs beside ${busyLoops} busy loops`);
for (const name of packages) {
  const own = results.filter((result) => result.name === name);
  const cells = own.map((result) => (result.ok ? `pass ${result.seconds.toFixed(0)} s` : `FAIL (${result.failed || "exit"}) ${result.seconds.toFixed(0)} s`));
  console.log(`  ${name.padEnd(16)} ${cells.join("   ")}`);
}
console.log(`logs: ${logs}`);
if (!here && !keep) rmSync(checkout, { recursive: true, force: true });
else if (!here) console.log(`the clone: ${checkout}`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
