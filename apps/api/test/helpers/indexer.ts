import { startIndexer as startIndexerProcess, type Service } from "@oro/dev-stack";
import type { LocalChain } from "./chain.js";

export interface RunningIndexer {
  url: string;
  service: Service;
  stop(): Promise<void>;
}

/** The real indexer (Ponder, as `pnpm start` runs it) on a fresh PGlite folder and a free port, indexing `chain`. */
export async function startIndexer(chain: LocalChain): Promise<RunningIndexer> {
  const indexer = await startIndexerProcess({ rpcUrl: chain.rpcUrl });
  return { url: indexer.url, service: indexer.service, stop: () => indexer.stop() };
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
