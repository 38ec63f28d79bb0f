import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEV_PROFILE } from "@oro/clients";
import { freePort } from "./ports.js";
import { startService, type Service } from "./processes.js";
import { rpcCall, waitFor, waitForHttpOk } from "./ready.js";
import { binOf, workspacePaths } from "./workspace.js";
import { inheritedEnv } from "./env.js";

export interface RunningIndexer {
  url: string;
  port: number;
  /** The PGlite root it indexes into (`<root>/<chain identity>/`). */
  pgliteRoot: string;
  service: Service;
  /** Stops it and deletes its data when the data folder was created here. */
  stop(): Promise<void>;
}

export interface IndexerOptions {
  rpcUrl: string;
  port?: number;
  /** `start` (the default) or `dev` (Ponder's watch mode). */
  mode?: "start" | "dev";
  /** Default: a fresh temporary folder, deleted on stop. */
  pgliteRoot?: string;
  env?: Record<string, string>;
  logFile?: string;
  /** Called with the process as soon as it is spawned (so that a caller can stop it while it starts). */
  onStarted?: (service: Service) => void;
  timeoutMs?: number;
}

/**
 * The indexer as `pnpm start` runs it (`scripts/start.ts`, which names its storage after the chain it finds) on
 * PGlite, resolved once it has indexed the block that was the chain's head when it answered `/ready`: Ponder
 * answers `/ready` once its backfill reached the block it started from, and may still be indexing the deploy's
 * later blocks, when the first screens would show partial figures.
 */
export async function startIndexer(options: IndexerOptions): Promise<RunningIndexer> {
  const { indexer } = workspacePaths();
  const ownsData = options.pgliteRoot === undefined;
  const pgliteRoot = options.pgliteRoot ?? mkdtempSync(path.join(tmpdir(), "oro-indexer-"));
  mkdirSync(pgliteRoot, { recursive: true });
  const port = options.port ?? (await freePort());
  const service = startService("indexer", binOf(indexer, "tsx"), ["scripts/start.ts", options.mode ?? "start"], {
    cwd: indexer,
    env: {
      ...inheritedEnv(),
      PONDER_TELEMETRY_DISABLED: "true",
      ...options.env,
      LOCAL_RPC_URL: options.rpcUrl,
      INDEXER_CHAIN_ID: String(DEV_PROFILE.chainId),
      PORT: String(port),
      PGLITE_ROOT: pgliteRoot,
      PGLITE_DIRECTORY: "",
      DATABASE_URL: "",
      DATABASE_SCHEMA: "",
    },
    ...(options.logFile ? { logFile: options.logFile } : {}),
  });
  options.onStarted?.(service);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await service.stop();
    if (ownsData) rmSync(pgliteRoot, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + (options.timeoutMs ?? 180_000);
    await waitForHttpOk(`${url}/ready`, deadline - Date.now(), service);
    const head = Number(await rpcCall<string>(options.rpcUrl, "eth_blockNumber"));
    await waitFor(`it indexed block ${head}`, deadline - Date.now(), service, async () => indexedBlock(url).then((block) => block >= head));
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, pgliteRoot, service, stop };
}

/** The highest block Ponder's `/status` says it has indexed (0 while it cannot tell). */
async function indexedBlock(url: string): Promise<number> {
  try {
    const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return 0;
    const status = (await response.json()) as Record<string, { block?: { number?: number } | null }>;
    return Math.max(0, ...Object.values(status).map((chain) => chain.block?.number ?? 0));
  } catch {
    return 0;
  }
}
