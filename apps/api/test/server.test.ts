import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, startService, waitForHttpOk } from "@oro/dev-stack";
import { testDatabaseKind } from "./helpers/database.js";

// The real entry points as processes: `pnpm start` (node with tsx as its loader, as in the production image) and
// `pnpm db:migrate`.
const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(apiRoot, "node_modules", ".bin", "tsx");
const server = [process.execPath, ["--import", "tsx", "src/server.ts"]] as const;
const dataDirs: string[] = [];

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const dataDir = mkdtempSync(path.join(tmpdir(), "oro-api-server-"));
  dataDirs.push(dataDir);
  // Always the embedded database here: this file tests the process, the suites test the databases.
  return { PATH: process.env.PATH, HOME: process.env.HOME, PGLITE_DATA_DIR: path.join(dataDir, "nested", "pglite"), LOG_LEVEL: "info", ...extra };
}

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

// Server processes and operator commands, each compiled by tsx at start: minutes on a loaded 2-core machine.
describe("the server process", { timeout: 600_000 }, () => {
  it("refuses to start in production without its settings, listing every missing one", async () => {
    const service = startService("api", server[0], [...server[1]], { cwd: apiRoot, env: baseEnv({ NODE_ENV: "production" }) });
    await new Promise<void>((resolve) => service.child.once("exit", () => resolve()));
    expect(service.child.exitCode).toBe(1);
    const output = service.output();
    expect(output).toContain("NODE_ENV=production needs");
    for (const name of ["DATABASE_URL", "CLAIM_SIGNER_PRIVATE_KEY", "CORS_ORIGINS", "INDEXER_URL", "RPC_URL"]) expect(output).toContain(name);
  });

  it(`starts on the embedded database (created on first start), serves, and shuts down gracefully on SIGTERM (suite: ${testDatabaseKind()})`, async () => {
    const port = await freePort();
    // At debug every request is logged (at info only server errors and slow answers are).
    const env = baseEnv({ API_PORT: String(port), WORKERS_ENABLED: "true", ACTIVATION_INTERVAL: "200ms", LOG_LEVEL: "debug" });
    const service = startService("api", server[0], [...server[1]], { cwd: apiRoot, env });
    // Readiness is the signal; the bound only stops a server that never gets there (tsx compiles on a loaded machine).
    await waitForHttpOk(`http://127.0.0.1:${port}/api/ready`, 180_000, service);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await health.json()).toEqual({ status: "ok" });
    expect(health.headers.get("x-request-id")).toBeTruthy();
    await service.waitForOutput('"reqId"', 10_000);

    const exited = new Promise<number | null>((resolve) => service.child.once("exit", (code) => resolve(code)));
    process.kill(service.child.pid ?? 0, "SIGTERM");
    expect(await exited).toBe(0);
    expect(service.output()).toContain("shutting down");
    expect(service.output()).toContain('"url":"/api/health"');

    // The data survives: db:migrate on the same data dir finds everything applied.
    const migrate = startService("migrate", tsx, ["scripts/migrate.ts"], { cwd: apiRoot, env: { ...env } });
    await new Promise<void>((resolve) => migrate.child.once("exit", () => resolve()));
    expect(migrate.child.exitCode).toBe(0);
    expect(migrate.output()).toMatch(/0 applied, \d+ already applied \(pglite\)/);

    // The operator's allow-list command on the same database.
    const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const run = async (...args: string[]) => {
      // No indexer answers here: the wallet's humans are unknown, so the entry names the wallet alone.
      const command = startService("allow-list", tsx, ["scripts/allow-list.ts", ...args], { cwd: apiRoot, env: { ...env, INDEXER_URL: "http://127.0.0.1:9" } });
      await new Promise<void>((resolve) => command.child.once("exit", () => resolve()));
      return { code: command.child.exitCode, output: command.output() };
    };
    expect((await run("add", address, "early", "supporter")).output).toContain(`allow-listed ${address.toLowerCase()} (early supporter) as an address-only entry`);
    expect((await run("list")).output).toContain(address.toLowerCase());
    expect((await run("remove", address)).output).toContain("removed 1 entry");
    expect((await run("add", "0x12")).code).toBe(2);
    expect((await run("frobnicate")).code).toBe(2);
  });
});
