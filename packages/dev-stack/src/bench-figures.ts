import { appendFileSync } from "node:fs";
import { benchFiguresFile } from "./env.js";

/** One figure a benchmark measured, beside what it is held to. */
export interface BenchFigure {
  /** The benchmark (its package). */
  bench: string;
  /** What was measured, in the product's words ("repeat mint, execution gas"). */
  figure: string;
  /** The measurement as printed ("25,244 gas"). */
  measured: string;
  /** The target or reference it is compared with ("≤ 25,305"), or "" when it is only shown. */
  target: string;
  /** Whether the target is met; null when the figure has no target. */
  met: boolean | null;
}

/**
 * Hands a figure to the root `pnpm bench`, which prints every benchmark's figures in one table: it names a file
 * in ORO_BENCH_FIGURES for the run, one JSON line per figure. A bench run on its own prints its own table only.
 */
export function recordBenchFigure(figure: BenchFigure): void {
  const file = benchFiguresFile();
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}
