import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { recordBenchFigure } from "@oro/dev-stack";
import { format } from "./bench-readings";

/** What one backfill run hands to --compare-kinds (BENCH_SUMMARY_FILE). */
export interface BackfillSummary {
  v4Every: number;
  humans: number;
  mints: number;
  events: number;
  backfillSeconds: number;
  cpuSeconds: number;
  handlerSeconds: number;
  misses: number;
  peakRss: number;
  meanLoad: number;
}

/**
 * --compare-kinds: the same backfill with every human on World ID 3.0, then every human on 4.0, each a run of this
 * script of its own, printed side by side. Per mint, a 4.0 human's first mint is three events (the enrolment), a
 * later one two, as for 3.0; what must match is the throughput in mints and the cost of a mint. `script` is the
 * bench itself, run in `packageDir`.
 */
export async function compareKinds(argv: string[], script: string, packageDir: string): Promise<void> {
  const passOn = argv.filter((arg) => arg !== "--compare-kinds");
  const runs: { kind: string; summary: BackfillSummary }[] = [];
  for (const [kind, v4Every] of [["3.0", "0"], ["4.0", "1"]] as const) {
    const summaryFile = path.join(tmpdir(), `oro-bench-${process.pid}-${v4Every}.json`);
    console.log(`\n=== every human on World ID ${kind} ===`);
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, ...passOn, "--v4-every", v4Every], {
        cwd: packageDir,
        env: { ...process.env, BENCH_SUMMARY_FILE: summaryFile },
        stdio: "inherit",
      });
      child.on("exit", resolve);
    });
    if (code !== 0) throw new Error(`the World ID ${kind} run failed (exit ${code})`);
    runs.push({ kind, summary: JSON.parse(readFileSync(summaryFile, "utf8")) as BackfillSummary });
    rmSync(summaryFile, { force: true });
  }
  const perMint = (seconds: number, mints: number) => `${format((seconds / mints) * 1e6)} µs`;
  console.log("\nWorld ID 3.0 and 4.0 humans side by side (the same chain but for the kind of human; TARGETS.md: the same throughput up to 2,000,000 humans)");
  console.log("| humans | kind | mints | events | backfill | **mints/s** | events/s | CPU (Ponder + PostgreSQL) per mint | handler time per mint | lookups that missed the cache | peak RSS | load (1 min) mean |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const { kind, summary } of runs) {
    const { humans, mints, events, backfillSeconds, cpuSeconds, handlerSeconds, misses, peakRss, meanLoad } = summary;
    console.log(
      `| ${format(humans)} | ${kind} | ${format(mints)} | ${format(events)} | ${backfillSeconds.toFixed(1)} s | **${format(mints / backfillSeconds)}** | ${format(events / backfillSeconds)} | ${perMint(cpuSeconds, mints)} | ${perMint(handlerSeconds, mints)} | ${format(misses)} | ${(peakRss / 2 ** 20).toFixed(0)} MiB | ${meanLoad.toFixed(1)} |`,
    );
  }
  const [v3, v4] = runs.map((run) => run.summary) as [BackfillSummary, BackfillSummary];
  const throughput = v4.mints / v4.backfillSeconds / (v3.mints / v3.backfillSeconds);
  const cost = v4.cpuSeconds / v4.mints / (v3.cpuSeconds / v3.mints);
  console.log(`\n4.0 against 3.0: mints/s ×${throughput.toFixed(2)}, CPU per mint ×${cost.toFixed(2)}, lookups that missed the cache ${format(v4.misses)} against ${format(v3.misses)} (the load decides mints/s on a shared machine; CPU per mint does not depend on it)`);
  recordBenchFigure({
    bench: "@oro/indexer",
    figure: `4.0 against 3.0 humans at ${format(v3.humans)} humans: mints/s, CPU per mint`,
    measured: `×${throughput.toFixed(2)}, ×${cost.toFixed(2)}`,
    target: "the same throughput",
    met: null,
  });
}
