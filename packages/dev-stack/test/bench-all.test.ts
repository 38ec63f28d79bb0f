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

describe.skipIf(!HAS_CHROMIUM)("pnpm bench --smoke", () => {
  it("runs every bench and closes with one table of their figures", async () => {
    const run = promisify(execFile)(process.execPath, ["packages/dev-stack/scripts/bench-all.mjs", "--smoke", "--skip", "@oro/api,@oro/indexer"], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0" },
      timeout: 900_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    // A failed run says which bench failed and why on its standard output: print it (execFile's error carries only
    // the command and npm's warnings).
    const { stdout } = await run.catch((error: { stdout?: string; stderr?: string }) => {
      console.log(`bench-all failed; its output:\n${error.stdout ?? ""}\n${(error.stderr ?? "").split("\n").filter((line) => !line.startsWith("npm warn")).join("\n")}`);
      throw error;
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
