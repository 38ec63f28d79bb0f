import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { freePort, isPortFree } from "../src/ports.js";
import { descendantsOf, processAlive } from "../src/proc.js";
import { signalGroup, startService, type Service } from "../src/processes.js";
import { rpcCall } from "../src/ready.js";
import { readState } from "../src/state.js";
import { workspacePaths } from "../src/workspace.js";

// The stack command as a user runs it (`node bin/stack.mjs start`, what `pnpm start` runs), on free ports and
// its own state folder. The packages are built beforehand (turbo runs this package's build and its
// dependencies' before the tests), so the launcher skips its build step.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stackBin = path.join(packageDir, "bin", "stack.mjs");
const scratch = mkdtempSync(path.join(tmpdir(), "oro-dev-stack-test-"));
const running: Service[] = [];

type Ports = Record<"CHAIN_PORT" | "INDEXER_PORT" | "API_PORT" | "WEB_PORT" | "SIMULATOR_PORT", string>;

async function freePorts(): Promise<Ports> {
  return {
    CHAIN_PORT: String(await freePort()),
    INDEXER_PORT: String(await freePort()),
    API_PORT: String(await freePort()),
    WEB_PORT: String(await freePort()),
    SIMULATOR_PORT: String(await freePort()),
  };
}

function runStack(stackDir: string, ports: Ports): Service {
  const command = startService("stack", process.execPath, [stackBin, "start"], {
    cwd: workspacePaths().root,
    env: { ...process.env, ...ports, STACK_DIR: stackDir, STACK_SKIP_BUILD: "1", DATABASE_URL: "" },
  });
  running.push(command);
  return command;
}

/** Kills whatever a failed test left: the command, then every service group it recorded. */
async function cleanUp(command: Service, stackDir: string): Promise<void> {
  const recorded = readState(stackDir)?.services ?? [];
  await command.stop(15_000);
  for (const service of recorded) if (service.pid) signalGroup(service.pid, "SIGKILL");
}

afterEach(async () => {
  for (const command of running.splice(0)) {
    if (command.running()) await cleanUp(command, path.join(scratch, "state"));
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function get(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  return { status: response.status, text: await response.text() };
}

interface Stats {
  holders: number;
  mints: number;
}

async function indexerStats(indexerPort: string): Promise<Stats> {
  return JSON.parse((await get(`http://127.0.0.1:${indexerPort}/stats`)).text) as Stats;
}

/** Waits until `read` satisfies `check` (the indexer follows the chain a moment later). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A development account takes ORO from the test-mode faucet (`claim()`), a transfer the indexer records. */
/** The chain's head, and the highest block the indexer says (`/status`) it has indexed. */
async function indexerProgress(indexerPort: string, rpcUrl: string): Promise<{ head: number; indexed: number }> {
  const head = Number(await rpcCall<string>(rpcUrl, "eth_blockNumber"));
  const status = JSON.parse((await get(`http://127.0.0.1:${indexerPort}/status`)).text) as Record<string, { block?: { number: number } }>;
  return { head, indexed: Math.max(0, ...Object.values(status).map((chain) => chain.block?.number ?? 0)) };
}

async function claimFromFaucet(rpcUrl: string): Promise<void> {
  const deployment = JSON.parse(readFileSync(path.join(workspacePaths().contracts, "deployments", "31337.json"), "utf8")) as {
    contracts: { TestModeFaucet: { address: string } };
  };
  const selector = (await rpcCall<string>(rpcUrl, "web3_sha3", [`0x${Buffer.from("claim()").toString("hex")}`])).slice(0, 10);
  const [, , , , , , , account] = await rpcCall<string[]>(rpcUrl, "eth_accounts");
  const hash = await rpcCall<string>(rpcUrl, "eth_sendTransaction", [
    { from: account, to: deployment.contracts.TestModeFaucet.address, data: selector },
  ]);
  const receipt = await eventually(
    () => rpcCall<{ status: string } | null>(rpcUrl, "eth_getTransactionReceipt", [hash]),
    (value) => value !== null,
  );
  expect(receipt?.status).toBe("0x1");
}

describe("the stack command", () => {
  it("refuses a taken port with one line naming the variable to set", async () => {
    const blocker = createServer();
    const ports = await freePorts();
    await new Promise<void>((resolve) => blocker.listen(Number(ports.API_PORT), "127.0.0.1", () => resolve()));
    try {
      const command = runStack(path.join(scratch, "refused"), ports);
      const { code } = await command.exited;
      expect(code).toBe(1);
      const lines = command.output().trim().split("\n");
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^Port ${ports.API_PORT} \\(api\\) is already in use: set API_PORT to a free port`))]);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  const stackDir = path.join(scratch, "state");
  let ports: Ports;
  let firstRunStats: Stats;

  it("starts everything, prints one table, and leaves no process and no port behind on Ctrl-C (SIGINT)", async () => {
    ports = await freePorts();
    const command = runStack(stackDir, ports);
    await command.waitForOutput(/Ready in \d+\.\d s\. Open http:\/\/\S+/, 240_000);
    const output = command.output();

    // Progress, then the table: every service with its URL and state, then the one URL to open.
    expect(output).toContain("starting the local chain and deploying the contracts");
    for (const [name, variable] of [["chain", "CHAIN_PORT"], ["indexer", "INDEXER_PORT"], ["api", "API_PORT"], ["web", "WEB_PORT"]] as const) {
      expect(output).toMatch(new RegExp(`\\n  ${name} +http://127\\.0\\.0\\.1:${ports[variable]}\\S* +ready`));
    }
    const simulatorRow = new RegExp(`\\n {2}simulator +http://127\\.0\\.0\\.1:${ports.SIMULATOR_PORT}\\S* +(ready|not available|not built)`);
    expect(output).toMatch(simulatorRow);
    // No service output on the terminal: the logs are in files.
    expect(output).not.toMatch(/Private Key|eth_sendTransaction|Contract deployment/);
    expect(existsSync(path.join(stackDir, "logs", "chain.log"))).toBe(true);
    expect(readFileSync(path.join(stackDir, "logs", "chain.log"), "utf8")).toContain("local chain ready");

    // Every service answers.
    const rpcUrl = `http://127.0.0.1:${ports.CHAIN_PORT}`;
    expect(Number(await rpcCall<string>(rpcUrl, "eth_chainId"))).toBe(31337);
    expect((await get(`http://127.0.0.1:${ports.INDEXER_PORT}/ready`)).status).toBe(200);
    expect((await get(`http://127.0.0.1:${ports.API_PORT}/api/ready`)).status).toBe(200);
    const page = await get(`http://127.0.0.1:${ports.WEB_PORT}/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
    // The web app reaches the API on its own origin, as in production.
    expect((await get(`http://127.0.0.1:${ports.WEB_PORT}/api/health`)).status).toBe(200);
    if (/\n {2}simulator +\S+ +ready/.test(output)) expect((await get(`http://127.0.0.1:${ports.SIMULATOR_PORT}/`)).status).toBe(200);

    // "Ready" means the indexer has indexed the deploy's blocks: the first screens show whole figures.
    const progress = await indexerProgress(ports.INDEXER_PORT, rpcUrl);
    expect(progress.indexed).toBeGreaterThanOrEqual(progress.head);

    // Something happens on this chain, and the indexer sees it (the next start must not show it).
    firstRunStats = await indexerStats(ports.INDEXER_PORT);
    await claimFromFaucet(rpcUrl);
    await eventually(() => indexerStats(ports.INDEXER_PORT), (stats) => stats.holders === firstRunStats.holders + 1);

    const state = readState(stackDir);
    expect(state?.ready).toBe(true);
    const servicePids = (state?.services ?? []).flatMap((service) => (service.pid ? [service.pid] : []));
    expect(servicePids.length).toBeGreaterThanOrEqual(4);
    const processes = descendantsOf(command.pid);
    const allPids = [...new Set([...processes, ...servicePids])];
    const dataDir = path.join(stackDir, "data");
    expect(readdirSync(dataDir)).toHaveLength(1);

    process.kill(command.pid, "SIGINT");
    const exit = await command.exited;
    expect(exit.code).toBe(0);
    expect(command.output()).toContain("Stopped.");
    expect(allPids.filter((pid) => processAlive(pid))).toEqual([]);
    for (const port of Object.values(ports)) expect(await isPortFree(Number(port))).toBe(true);
    // This run's data (indexer and API databases, the web build) is gone with it.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("starts again without any cleanup on fresh data, and stops everything with an error when a service dies", async () => {
    const command = runStack(stackDir, ports);
    await command.waitForOutput(/Ready in \d+\.\d s\./, 240_000);
    // A new chain: the indexer starts from nothing, not from the first run's rows.
    const progress = await indexerProgress(ports.INDEXER_PORT, `http://127.0.0.1:${ports.CHAIN_PORT}`);
    expect(progress.indexed).toBeGreaterThanOrEqual(progress.head);
    expect(await indexerStats(ports.INDEXER_PORT)).toMatchObject({ holders: firstRunStats.holders, mints: firstRunStats.mints });

    const indexer = readState(stackDir)?.services.find((service) => service.name === "indexer");
    const allPids = [...new Set([...descendantsOf(command.pid), ...(readState(stackDir)?.services.flatMap((s) => (s.pid ? [s.pid] : [])) ?? [])])];
    expect(indexer?.pid).toBeGreaterThan(0);
    signalGroup(indexer?.pid ?? 0, "SIGKILL");

    const exit = await command.exited;
    expect(exit.code).toBe(1);
    const output = command.output();
    expect(output).toMatch(/✗ indexer ended by SIGKILL: stopping everything\./);
    expect(output).toMatch(/Last lines of indexer \(.*indexer\.log\):/);
    expect(output).toMatch(/\n {2}indexer +http:\S+ +EXITED/);
    expect(output).toMatch(/\n {2}api +http:\S+ +stopped/);
    expect(allPids.filter((pid) => processAlive(pid))).toEqual([]);
    for (const port of Object.values(ports)) expect(await isPortFree(Number(port))).toBe(true);
  });
});
