import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The bench (scripts/bench-backfill.ts) serves its own chain to Ponder and indexes it: a change of the contracts' events,
// the schema or the handlers can break it without failing any other test. Its smoke size runs here: 3,000 mints by
// 500 humans (a tenth of them World ID 4.0 humans), then a few live blocks, then a rebuild from Ponder's RPC cache. The bench itself fails unless Ponder's
// totals (mints, humans, holders, supply; on PostgreSQL also the mint rows) equal the chain's, backfill and live.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("the indexer bench (scripts/bench-backfill.ts --smoke)", () => {
  it("backfills every event from its chain source, follows live blocks and prints its figures", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/bench-backfill.ts", "--smoke"], {
      cwd: packageDir,
      env: { ...process.env, PONDER_TELEMETRY_DISABLED: "true" },
      timeout: 200_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toMatch(/Backfill: every event indexed \(3,000 mints, 500 humans, 500 holders/);
    expect(stdout).toMatch(/^\| events\/s, first to last event indexed .*\| \*\*[\d,]+\*\* \(6,055 events/m);
    expect(stdout).toMatch(/^\| peak RSS of the Ponder process \| \d+ MiB/m);
    expect(stdout).toMatch(/^\| head lag .*\| max \*\*\d+\*\*/m);
    expect(stdout).toMatch(/^\| live blocks, mints \| \d+, [\d,]+ \(every one indexed\)/m);
    if (stdout.includes("; PostgreSQL")) expect(stdout).toMatch(/^\| disk: Ponder's RPC cache \(ponder_sync\) \/ the indexed tables \| [\d,]+ MiB/m);
    // A new build's reindex from Ponder's RPC cache reaches the same totals (the bench fails otherwise).
    expect(stdout).toMatch(/^Rebuild from Ponder's RPC cache into a new schema: the same totals as the first run \(3,\d00 mints\)/m);
    expect(stdout).toMatch(/^\| events\/s, first to last event indexed \| \*\*[\d,]+\*\* /m);
    expect(stdout).not.toMatch(/NOT SERVED/);
  });

  it("prints World ID 3.0 and 4.0 humans side by side (--compare-kinds), every event of both runs indexed", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/bench-backfill.ts", "--compare-kinds", "--humans", "200", "--rounds", "2", "--per-block", "50"], {
      cwd: packageDir,
      env: { ...process.env, PONDER_TELEMETRY_DISABLED: "true" },
      timeout: 230_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    // Each run fails unless its totals equal the chain's: 400 mints by 200 humans, 3.0 then 4.0 (200 enrolments more).
    expect(stdout).toMatch(/^\| 200 \| 3\.0 \| 400 \| 805 \| [\d.]+ s \| \*\*[\d,]+\*\* \|/m);
    expect(stdout).toMatch(/^\| 200 \| 4\.0 \| 400 \| 1,005 \| [\d.]+ s \| \*\*[\d,]+\*\* \|/m);
    expect(stdout).toMatch(/^4\.0 against 3\.0: mints\/s ×[\d.]+, CPU per mint ×[\d.]+/m);
  });
});
