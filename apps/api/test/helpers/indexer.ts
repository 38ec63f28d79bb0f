import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LocalChain } from "./chain.js";
import { freePort, startService, waitForHttpOk, type Service } from "./processes.js";

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The indexer package, a devDependency: started the way its own tests start it (`scripts/start.ts start`). */
const indexerDir = realpathSync(path.join(apiRoot, "node_modules", "@oro", "indexer"));

export interface RunningIndexer {
  url: string;
  service: Service;
  stop(): Promise<void>;
}

/** The real indexer (Ponder) on a fresh PGlite folder and a free port, indexing `chain`. */
export async function startIndexer(chain: LocalChain): Promise<RunningIndexer> {
  const root = mkdtempSync(path.join(tmpdir(), "oro-api-indexer-"));
  const port = await freePort();
  const service = startService("indexer", path.join(indexerDir, "node_modules", ".bin", "tsx"), ["scripts/start.ts", "start"], {
    cwd: indexerDir,
    env: {
      ...process.env,
      LOCAL_RPC_URL: chain.rpcUrl,
      INDEXER_CHAIN_ID: "31337",
      PORT: String(port),
      PGLITE_ROOT: root,
      PGLITE_DIRECTORY: "",
      DATABASE_URL: "",
      DATABASE_SCHEMA: "",
      PONDER_TELEMETRY_DISABLED: "true",
    },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttpOk(`${url}/ready`, 180_000, service);
  } catch (error) {
    await service.stop();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    service,
    async stop() {
      await service.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` holds (the indexer follows the chain a moment later). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
