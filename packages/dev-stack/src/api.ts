import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEV_PROFILE } from "@oro/clients";
import { freePort } from "./ports.js";
import { startService, type Service } from "./processes.js";
import { waitForHttpOk } from "./ready.js";
import { binOf, workspacePaths } from "./workspace.js";
import { inheritedEnv } from "./env.js";

export interface RunningApi {
  /** The server's origin; the routes are under `${url}/api`. */
  url: string;
  port: number;
  dataDir: string;
  service: Service;
  /** Stops it and deletes its data when the data folder was created here. */
  stop(): Promise<void>;
}

export interface ApiOptions {
  rpcUrl: string;
  indexerUrl: string;
  port?: number;
  /** The PGlite data folder. Default: a fresh temporary folder, deleted on stop. */
  dataDir?: string;
  /** Origins the browser may call the API from. */
  corsOrigins?: string[];
  /** Hosts (`host[:port]`) that sign-in messages may name; empty accepts any. */
  siweDomains?: string[];
  /** Where the web app is served (the invite preview's absolute links); default: the development profile's web origin. */
  publicOrigin?: string;
  /** `tsx watch`: restarts on every change of the API's sources. */
  watch?: boolean;
  env?: Record<string, string>;
  logFile?: string;
  /** Called with the process as soon as it is spawned (so that a caller can stop it while it starts). */
  onStarted?: (service: Service) => void;
  timeoutMs?: number;
}

/**
 * The API in its development profile on PGlite, with the payout worker and the reminder scheduler running and
 * reminders written to the outbox; resolved once `/api/ready` answers.
 */
export async function startApi(options: ApiOptions): Promise<RunningApi> {
  const { api } = workspacePaths();
  const ownsData = options.dataDir === undefined;
  const dataDir = options.dataDir ?? path.join(mkdtempSync(path.join(tmpdir(), "oro-api-")), "pglite");
  const port = options.port ?? (await freePort());
  // Without watch, node runs the server itself with tsx as its loader: one process, so SIGTERM reaches the
  // server's own graceful shutdown (the tsx command relays signals through a parent that can miss on a busy machine).
  const [command, args] = options.watch
    ? [binOf(api, "tsx"), ["watch", "src/server.ts"]]
    : [process.execPath, ["--import", "tsx", "src/server.ts"]];
  const service = startService("api", command, args, {
    cwd: api,
    env: {
      ...inheritedEnv(),
      NODE_ENV: "development",
      API_HOST: "127.0.0.1",
      API_PORT: String(port),
      DATABASE_URL: "",
      PGLITE_DATA_DIR: dataDir,
      RPC_URL: options.rpcUrl,
      CHAIN_ID: String(DEV_PROFILE.chainId),
      INDEXER_URL: options.indexerUrl,
      WORKERS_ENABLED: "true",
      NOTIFICATIONS_TRANSPORT: "outbox",
      ...(options.corsOrigins ? { CORS_ORIGINS: options.corsOrigins.join(",") } : {}),
      ...(options.siweDomains ? { SIWE_DOMAINS: options.siweDomains.join(",") } : {}),
      ...(options.publicOrigin ? { PUBLIC_ORIGIN: options.publicOrigin } : {}),
      ...options.env,
    },
    ...(options.logFile ? { logFile: options.logFile } : {}),
  });
  options.onStarted?.(service);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await service.stop();
    if (ownsData) rmSync(path.dirname(dataDir), { recursive: true, force: true });
  };
  try {
    await waitForHttpOk(`${url}/api/ready`, options.timeoutMs ?? 180_000, service);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, dataDir, service, stop };
}
