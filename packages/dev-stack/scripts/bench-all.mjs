// Every benchmark of the project in turn, then one table of their figures beside their targets: `pnpm bench`
// (`pnpm bench --smoke` runs each at its tiny size: the figures then only show that every bench still runs;
// `--skip @oro/api,@oro/indexer` leaves some out).
// Each package's own `bench` script builds what it needs and prints its own detailed table; the figures it hands
// over (recordBenchFigure, one JSON line each in the file ORO_BENCH_FIGURES names) make the closing table.
// Exits non-zero when a bench fails to run (a missed target is a figure, not a failure).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const smoke = process.argv.includes("--smoke");
// --skip a,b: leave out benches another suite already smoke-runs (the API's and the indexer's run in their tests).
const skipIndex = process.argv.indexOf("--skip");
const skipped = new Set(skipIndex >= 0 ? (process.argv[skipIndex + 1] ?? "").split(",") : []);

/** The benchmarks, cheapest first; how each is asked for its tiny size. */
const BENCHES = [
  { name: "@oro/contracts", what: "gas of the mint, the 4.0 claim, enrolment, move, voucher claim", smokeArgs: [], smokeEnv: {} },
  { name: "@oro/indexer", what: "backfill events/s, peak memory, live head lag", smokeArgs: ["--smoke"], smokeEnv: {} },
  { name: "@oro/api", what: "hot routes against a bare Fastify route", smokeArgs: ["--smoke"], smokeEnv: {} },
  { name: "@oro/web", what: "LCP of / for a new visitor", smokeArgs: [], smokeEnv: { BENCH_RUNS: "1" } },
  { name: "@oro/e2e", what: "the returning user's ready slider", smokeArgs: [], smokeEnv: { BENCH_RUNS: "1" } },
  // The smoke run's fresh clone replays its build from this checkout's Turborepo cache (CI's own run builds a fresh clone).
  // Its smoke run starts once, on the fresh clone: the dev stack's own tests start it again.
  { name: "@oro/dev-stack", what: "pnpm start on a fresh clone and again", smokeArgs: [], smokeEnv: { BENCH_RUNS: "0", BENCH_BUILD_CACHE: join(root, ".turbo", "cache") } },
];

const folder = mkdtempSync(join(tmpdir(), "oro-bench-"));
const figuresFile = join(folder, "figures.jsonl");
const results = [];
/** The bench running now, in a process group of its own: stopped with this script (a stack, a browser under it). */
let current;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (current?.exitCode === null) {
      try {
        process.kill(-current.pid, signal);
      } catch {
        // already gone
      }
    }
    rmSync(folder, { recursive: true, force: true });
    process.exit(130);
  });
}
for (const bench of BENCHES.filter((each) => !skipped.has(each.name))) {
  console.log(`\n━━ ${bench.name}: ${bench.what}${smoke ? " (smoke size)" : ""} ━━`);
  const started = performance.now();
  const code = await new Promise((resolveRun) => {
    const child = spawn("npx", ["--yes", "pnpm@10.34.9", "--filter", bench.name, "bench", ...(smoke ? bench.smokeArgs : [])], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ORO_BENCH_FIGURES: figuresFile, ...(smoke ? bench.smokeEnv : {}) },
      detached: true,
    });
    current = child;
    child.on("exit", (exitCode, signal) => resolveRun(exitCode ?? (signal ? 1 : 0)));
  });
  results.push({ name: bench.name, code, seconds: (performance.now() - started) / 1000 });
}

let figures = [];
try {
  figures = readFileSync(figuresFile, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
} catch {
  figures = [];
}
rmSync(folder, { recursive: true, force: true });

const rows = [["bench", "figure", "measured", "target", "met"]];
for (const figure of figures) rows.push([figure.bench, figure.figure, figure.measured, figure.target, figure.met === null ? "—" : figure.met ? "yes" : "NO"]);
for (const result of results) {
  if (result.code !== 0) rows.push([result.name, "the bench itself", `failed (exit ${result.code})`, "runs", "NO"]);
  else if (!figures.some((figure) => figure.bench === result.name)) rows.push([result.name, "(figures printed above)", "", "", "—"]);
}
const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
console.log(`\nEvery benchmark${smoke ? " at its smoke size (figures meaningless)" : ""}: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), load ${loadavg().map((value) => value.toFixed(2)).join(" / ")}, Node.js ${process.version}`);
for (const [index, row] of rows.entries()) {
  console.log(`  ${row.map((cell, column) => String(cell).padEnd(widths[column])).join("   ")}`);
  if (index === 0) console.log(`  ${widths.map((width) => "─".repeat(width)).join("   ")}`);
}
console.log(`  (${results.map((result) => `${result.name} ${result.seconds.toFixed(0)} s`).join(", ")})`);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
