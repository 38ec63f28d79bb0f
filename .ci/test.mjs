// pnpm test [--concurrency 2]: every lint, type check and suite of every package, through Turborepo, longest first.
//
// Turborepo starts the tasks that are ready in no fixed order (three runs of the same graph gave three orders), so the
// API's suite, the longest, sometimes started after twenty others and ran alone at the end while one core idled. This
// runs the same graph (Turborepo's dry run of `lint typecheck test`: the same tasks, dependencies, environment and
// cache) one task at a time through `turbo run <task> --filter <package> --only`, always starting the ready task with
// the longest way to the end first: its own typical duration plus the longest chain of tasks waiting for it.
// Like `turbo run --continue` it runs every task even when one fails, and exits non-zero when any did. It writes the
// run summary `turbo run --summarize` would (each task's start, end, exit code and cache status) for CI's summary.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const turbo = join(root, "node_modules", ".bin", "turbo");
const TASKS = ["lint", "typecheck", "test"];

const concurrencyIndex = process.argv.indexOf("--concurrency");
const concurrency = concurrencyIndex >= 0 ? Number(process.argv[concurrencyIndex + 1]) : 2;
if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error("--concurrency needs a whole number, 1 or more");

// Seconds each task took in CI on a loaded 2-core machine (the "duration per task" CI prints), rounded. Only the order
// depends on them: a task missing here counts as a short one.
const TYPICAL_SECONDS = {
  "@oro/web#test": 800,
  "@oro/api#test": 600,
  "@oro/e2e#test": 550,
  "@oro/indexer#test": 400,
  "@oro/contracts#test": 210,
  "@oro/dev-stack#test": 160,
  "@oro/simulator#test": 150,
  "@oro/api#lint": 55,
  "@oro/clients#lint": 45,
  "@oro/web#lint": 40,
  "@oro/indexer#build": 35,
};
const typicalSeconds = (taskId) => TYPICAL_SECONDS[taskId] ?? (taskId.endsWith("#build") ? 30 : 20);

/** The graph Turborepo would run: each task with the tasks it waits for. */
const dryRun = JSON.parse(execFileSync(turbo, ["run", ...TASKS, "--dry=json"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 }));
const tasks = new Map(
  dryRun.tasks.map((task) => [task.taskId, { id: task.taskId, name: task.task, pkg: task.package, waitsFor: [...new Set(task.dependencies)], waitedBy: [] }]),
);
for (const task of tasks.values()) for (const dependency of task.waitsFor) tasks.get(dependency)?.waitedBy.push(task.id);

/** Its own typical duration plus the longest chain of tasks after it. */
const priorities = new Map();
function priority(id) {
  if (!priorities.has(id)) priorities.set(id, typicalSeconds(id) + Math.max(0, ...tasks.get(id).waitedBy.map(priority)));
  return priorities.get(id);
}

const running = new Map();
const ended = new Map();
const results = [];

// Turborepo's own closing lines of each single-task run: CI's summary prints every task's duration instead.
const TURBO_CHATTER = /^\s*(?:Tasks:|Cached:|Time:|• Packages in scope:|• Running |• Remote caching disabled|>>> FULL TURBO)|^\s*$/;

function start(task) {
  const startTime = Date.now();
  const child = spawn(turbo, ["run", task.name, "--filter", task.pkg, "--only", "--log-prefix=task"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let cached = false;
  // Whole lines only, so that two tasks' output never mixes within a line.
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
      if (line.includes(": cache hit, replaying logs")) cached = true;
      if (!TURBO_CHATTER.test(line)) out.write(`${line}\n`);
    });
  }
  running.set(task.id, child);
  child.on("close", (code, signal) => {
    running.delete(task.id);
    const exitCode = code ?? (signal ? 128 : 1);
    ended.set(task.id, exitCode);
    results.push({ taskId: task.id, task: task.name, package: task.pkg, cache: { status: cached ? "HIT" : "MISS" }, execution: { startTime, endTime: Date.now(), exitCode } });
    if (exitCode !== 0) console.log(`test: ${task.id} failed (exit ${exitCode})`);
    schedule();
  });
}

function schedule() {
  const ready = [...tasks.values()]
    .filter((task) => !ended.has(task.id) && !running.has(task.id) && task.waitsFor.every((dependency) => ended.has(dependency) || !tasks.has(dependency)))
    .sort((a, b) => priority(b.id) - priority(a.id));
  while (running.size < concurrency && ready.length > 0) start(ready.shift());
  if (running.size === 0 && ended.size === tasks.size) finish();
}

function finish() {
  const failed = results.filter(({ execution }) => execution.exitCode !== 0).map(({ taskId }) => taskId);
  const runs = join(root, ".turbo", "runs");
  mkdirSync(runs, { recursive: true });
  writeFileSync(join(runs, `ordered-${Date.now()}.json`), JSON.stringify({ tasks: results }, null, 2));
  console.log(`test: ${results.length} tasks, ${results.length - failed.length} successful${failed.length > 0 ? `, failed: ${failed.join(", ")}` : ""}`);
  process.exit(failed.length > 0 ? 1 : 0);
}

// Each task runs in its own process group: stop every group on the way out.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    for (const child of running.values()) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

console.log(`test: ${tasks.size} tasks, ${concurrency} at a time, longest way to the end first`);
schedule();
