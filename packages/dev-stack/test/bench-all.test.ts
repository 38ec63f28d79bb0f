import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { HAS_CHROMIUM } from "../src/chromium.js";

// `pnpm bench` at its smoke size, so that no benchmark can rot unseen: the contracts' gas table, the web's LCP, the
// returning user through the simulator, and `pnpm start` on a fresh clone of HEAD. The API's and the indexer's
// benches are smoke-run in their own suites. Skips without Chromium (two of them drive it).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

const BENCH_ALL_TIMEOUT_MS = 900_000;

describe.skipIf(!HAS_CHROMIUM)("pnpm bench --smoke", () => {
  it("runs every bench and closes with one table of their figures", async () => {
    const run = promisify(execFile)(process.execPath, ["packages/dev-stack/scripts/bench-all.mjs", "--smoke", "--skip", "@oro/api,@oro/indexer"], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0" },
      timeout: BENCH_ALL_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    // A failed run says which bench failed and why on its standard output: the error names it first (execFile's own
    // carries only the command and npm's warnings), so that the end of CI's output does.
    const { stdout } = await run.catch((error: { stdout?: string; stderr?: string; killed?: boolean; signal?: string | null; code?: number | null }) => {
      const output = error.stdout ?? "";
      const failedBenches = [...output.matchAll(/^\s*(@oro\/[\w-]+)\s+the bench itself\s+failed \(exit (\d+)\)/gm)].map((match) => `${match[1]} (exit ${match[2]})`);
      const running = [...output.matchAll(/^━━ (@oro\/[\w-]+):/gm)].at(-1)?.[1];
      const why = error.killed
        ? `pnpm bench --smoke was stopped after ${BENCH_ALL_TIMEOUT_MS / 1000} s (${error.signal ?? "killed"}) while ${running ?? "no bench"} ran`
        : failedBenches.length > 0
          ? `pnpm bench --smoke: ${failedBenches.join(", ")} failed`
          : `pnpm bench --smoke exited ${error.code ?? error.signal ?? "?"}${running ? ` during ${running}` : ""}`;
      const stderr = (error.stderr ?? "").split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn") && !/NO_COLOR|--trace-warnings/.test(line));
      throw new Error(`${why}\n--- its output (end) ---\n${output.slice(-4_000)}\n--- stderr (end) ---\n${stderr.join("\n").slice(-2_000)}`, { cause: error });
    });
    const table = stdout.slice(stdout.lastIndexOf("Every benchmark at its smoke size"));
    expect(table).not.toContain("failed (exit");
    const figures: [string, string][] = [
      ["@oro/contracts", "repeat mint by the same human after 24 h, execution gas"],
      ["@oro/web", "LCP of /, new visitor, slow 4G + 4× CPU (median)"],
      ["@oro/web", "the app's own screen painted, new visitor, slow 4G + 4× CPU (median)"],
      ["@oro/e2e", "returning user: ready slider or countdown"],
      ["@oro/dev-stack", "pnpm start, first start on a fresh clone"],
    ];
    for (const [bench, figure] of figures) {
      expect(table).toMatch(new RegExp(`${bench}\\s+[^\\n]*${figure.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    }
  }, 960_000);
});
