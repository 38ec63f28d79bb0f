import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  binOf,
  buildWeb,
  freePort,
  serveWeb,
  startApi,
  startIndexer,
  startLocalChain,
  startService,
  startSimulator,
  workspacePaths,
} from "@oro/dev-stack";
import { DEV_PROFILE } from "@oro/clients";
import { HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from "@oro/dev-stack/chromium";
import { E2E_POLL } from "./support/poll.js";
import { STACK_VARIABLE, type E2eStack } from "./support/stack-file.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const KEPT_RUNS = 5;

/**
 * A folder of its own for this run's logs, so that a failure can still be read after the journeys ran again;
 * only the newest runs are kept.
 */
function newLogsDir(root: string): string {
  mkdirSync(root, { recursive: true });
  const runs = readdirSync(root).filter((name) => /^\d{8}-\d{6}-\d+$/.test(name)).sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - (KEPT_RUNS - 1)))) rmSync(path.join(root, old), { recursive: true, force: true });
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const dir = path.join(root, `${stamp}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Starts ONE stack for every journey, as `pnpm start` runs it (the chain with the contracts deployed, the
 * indexer and the API on fresh PGlite, the production web build served with /api forwarded, the simulator),
 * each on a port the OS picks and in its own process group, from @oro/dev-stack's parts. It is put together
 * here rather than with LocalStack for one reason: a poll is created with the API's operator command
 * (`pnpm --filter @oro/api polls create`) on the API's database before the API opens it (PGlite has one
 * process at a time). Returns the teardown; without Chromium nothing starts and every journey skips.
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (!HAS_CHROMIUM) {
    console.warn(`e2e journeys skipped: ${NO_CHROMIUM_MESSAGE}`);
    return undefined;
  }
  const started = Date.now();
  const logsDir = newLogsDir(path.join(here, ".stack", "logs"));
  const dataDir = mkdtempSync(path.join(tmpdir(), "oro-e2e-"));
  const log = (name: string) => path.join(logsDir, `${name}.log`);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    await Promise.all(stops.splice(0).map((each) => each().catch(() => undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  };
  const onSignal = () => void stop().finally(() => process.exit(130));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    // Every port first, so that the web build (which bakes in the chain's URL) and the poll (written into the API's
    // database) need not wait for the chain: on two cores the chain's deploy, Ponder's start and the builds overlap.
    const [chainPort, indexerPort, apiPort, metricsPort, simulatorPort] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    const rpcUrl = `http://127.0.0.1:${chainPort}`;
    const indexerUrl = `http://127.0.0.1:${indexerPort}`;
    const simulatorHosts = [`127.0.0.1:${simulatorPort}`, `localhost:${simulatorPort}`];
    const apiData = path.join(dataDir, "api", "pglite");

    const chain = startLocalChain({ port: chainPort, logFile: log("chain"), onStarted: (service) => stops.push(() => service.stop()) }).then((running) => {
      console.log(`e2e stack: chain ready at ${running.rpcUrl}`);
      return running;
    });
    const poll = seedPoll(apiData, rpcUrl, indexerUrl);
    const web = buildWeb({ outDir: path.join(dataDir, "web"), rpcUrl, logFile: log("web-build"), onStarted: (service) => stops.push(() => service.stop()) }).then(async () => {
      const server = await serveWeb({ distDir: path.join(dataDir, "web"), apiUrl: `http://127.0.0.1:${apiPort}` });
      stops.push(() => server.close());
      return server;
    });
    const indexer = chain.then(() =>
      startIndexer({ rpcUrl, port: indexerPort, pgliteRoot: path.join(dataDir, "indexer"), logFile: log("indexer"), onStarted: (service) => stops.push(() => service.stop()) }),
    );
    const api = Promise.all([chain, poll]).then(() =>
      startApi({
        rpcUrl,
        indexerUrl,
        port: apiPort,
        dataDir: apiData,
        corsOrigins: simulatorHosts.map((host) => `http://${host}`),
        siweDomains: simulatorHosts,
        env: journeyApiSettings(metricsPort),
        logFile: log("api"),
        onStarted: (service) => stops.push(() => service.stop()),
      }),
    );
    // Settled all before anything is stopped: a service still starting when another failed is then on `stops` too.
    const settled = await Promise.allSettled([chain, indexer, api, web, poll]);
    const failed = settled.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed) throw failed.reason;
    const [runningChain, runningIndexer, runningApi, webServer] = await Promise.all([chain, indexer, api, web]);
    console.log(`e2e stack: indexer ${runningIndexer.url}, API ${runningApi.url}, web ${webServer.url}`);
    const simulator = await startSimulator({
      port: simulatorPort,
      miniAppUrl: webServer.url,
      chainRpcUrl: rpcUrl,
      apiUrl: runningApi.url,
      chainId: runningChain.chainId,
      logFile: log("simulator"),
      onStarted: (service) => stops.push(() => service.stop()),
    });
    const info: E2eStack = {
      simulatorUrl: simulator.url,
      apiUrl: runningApi.url,
      apiMetricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
      rpcUrl,
      indexerUrl: runningIndexer.url,
      logsDir,
    };
    process.env[STACK_VARIABLE] = JSON.stringify(info);
    console.log(`e2e stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s: simulator ${info.simulatorUrl} (logs in ${logsDir})`);
  } catch (error) {
    await stop();
    throw new Error(`the e2e stack did not start (logs in ${logsDir}): ${error instanceof Error ? error.message : String(error)}`);
  }
  return async () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await stop();
  };
}

/**
 * The API's intervals for this stack only (its env.ts reads them; the defaults stay as production has them): the
 * journeys wait for what a user would see, so a shorter scheduler tick and streak cache shorten the wait without
 * changing what is checked. The metrics port lets a journey count the reminder scheduler's passes.
 */
function journeyApiSettings(metricsPort: number): Record<string, string> {
  return { NOTIFICATION_INTERVAL: "1s", STREAK_CACHE_TTL: "2s", METRICS_PORT: String(metricsPort) };
}

/** The API's operator command creates the journeys' poll in the database the API will open. */
async function seedPoll(pgliteDir: string, rpcUrl: string, indexerUrl: string): Promise<void> {
  const { api } = workspacePaths();
  mkdirSync(path.dirname(pgliteDir), { recursive: true });
  const pollFile = path.join(path.dirname(pgliteDir), "poll.json");
  writeFileSync(pollFile, JSON.stringify(E2E_POLL));
  const command = startService("api polls", binOf(api, "tsx"), ["scripts/polls.ts", "create", pollFile], {
    cwd: api,
    env: { ...process.env, NODE_ENV: "development", DATABASE_URL: "", PGLITE_DATA_DIR: pgliteDir, RPC_URL: rpcUrl, CHAIN_ID: String(DEV_PROFILE.chainId), INDEXER_URL: indexerUrl },
  });
  const { code } = await command.exited;
  if (code !== 0) throw new Error(`pnpm --filter @oro/api polls create failed (code ${code}):\n${command.lastLines(20).join("\n")}`);
  console.log(`e2e stack: ${command.lastLines(1).join("")}`);
}
