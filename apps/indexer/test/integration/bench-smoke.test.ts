import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The backfill bench deploys and mints on its own chain and indexes it: a change of the contracts, the schema or
// the handlers can break it without failing any other test. A tiny size runs here.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("the backfill bench (scripts/bench-backfill.ts, smoke size)", () => {
  it("mints, backfills and prints its table", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/bench-backfill.ts", "20"], {
      cwd: packageDir,
      // PGlite only: the PostgreSQL run is the bench's own business, not a smoke test's.
      env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "DATABASE_URL")),
      timeout: 200_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toMatch(/20 mints in \d+ blocks/);
    expect(stdout).toMatch(/^\| PGlite \| \d+ \|/m);
  });
});
