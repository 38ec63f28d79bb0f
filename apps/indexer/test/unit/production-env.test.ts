import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// `pnpm start` (what the production image runs) with NODE_ENV=production refuses development defaults in one line.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(packageDir, "node_modules/.bin/tsx"), ["scripts/start.ts", "start"], {
      cwd: packageDir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("production start", () => {
  it("names every missing setting: the chain, PostgreSQL and the chain's own RPC", async () => {
    const { code, output } = await start({});
    expect(code).toBe(1);
    expect(output.trim()).toBe("NODE_ENV=production needs these settings, which have development defaults only: INDEXER_CHAIN_ID, DATABASE_URL, LOCAL_RPC_URL");
  }, 60_000);

  it("on World Chain asks for WORLDCHAIN_RPC_URL rather than the public, rate-limited RPC", async () => {
    const { code, output } = await start({ INDEXER_CHAIN_ID: "480", DATABASE_URL: "postgresql://oro@127.0.0.1:9/oro" });
    expect(code).toBe(1);
    expect(output.trim()).toBe("NODE_ENV=production needs these settings, which have development defaults only: WORLDCHAIN_RPC_URL");
  }, 60_000);

  it("refuses an RPC cache switch that is neither on nor off, naming it", async () => {
    const { code, output } = await start({ INDEXER_CHAIN_ID: "480", DATABASE_URL: "postgresql://oro@127.0.0.1:9/oro", WORLDCHAIN_RPC_URL: "http://127.0.0.1:9", INDEXER_RPC_CACHE: "yes" });
    expect(code).toBe(1);
    expect(output).toContain('INDEXER_RPC_CACHE must be on or off, got "yes"');
  }, 60_000);

  it("reads the database URL from a file (a Docker secret) when DATABASE_URL_FILE names one, and names a file it cannot read", async () => {
    const secret = path.join(mkdtempSync(path.join(tmpdir(), "oro-indexer-secret-")), "database_url");
    writeFileSync(secret, "postgresql://oro:s3cret@127.0.0.1:9/oro\n");
    const fromFile = await start({ INDEXER_CHAIN_ID: "480", DATABASE_URL_FILE: secret });
    expect(fromFile.code).toBe(1);
    expect(fromFile.output.trim()).toBe("NODE_ENV=production needs these settings, which have development defaults only: WORLDCHAIN_RPC_URL");
    const unreadable = await start({ INDEXER_CHAIN_ID: "480", DATABASE_URL_FILE: `${secret}.missing` });
    expect(unreadable.code).toBe(1);
    expect(unreadable.output).toContain(`DATABASE_URL_FILE: cannot read ${secret}.missing (ENOENT)`);
  }, 60_000);
});
