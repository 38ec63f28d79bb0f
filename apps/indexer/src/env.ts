import { readFileSync } from "node:fs";
import { CHAIN_IDS, DEV_PROFILE } from "@oro/clients";

/**
 * The indexer's configuration, read from the environment here and nowhere else. Every default is the local
 * development chain's. The database URL (its password) and the RPC URLs (an API key) may come from a file instead,
 * `<NAME>_FILE` (a Docker secret), so that they never show in the container's environment.
 */

/** The chains the indexer knows, by the names `CHAIN_IDS` gives them. */
export type IndexedChainName = keyof typeof CHAIN_IDS;

/** The settings that may be read from a file named by `<NAME>_FILE`. An empty file counts as unset. */
export const FILE_SETTINGS = ["DATABASE_URL", "WORLDCHAIN_RPC_URL", "LOCAL_RPC_URL"] as const;

function read(name: string): string | undefined {
  const file = (FILE_SETTINGS as readonly string[]).includes(name) ? process.env[`${name}_FILE`]?.trim() : undefined;
  if (file) {
    if (process.env[name]?.trim()) throw new Error(`${name} and ${name}_FILE are both set: set one`);
    try {
      return readFileSync(file, "utf8").trim() || undefined;
    } catch (error) {
      throw new Error(`${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  const value = process.env[name]?.trim();
  return value === "" ? undefined : value;
}

function readInteger(name: string, fallback: number, { min, max }: { min: number; max: number }): number {
  const value = read(name);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

function readOptionalInteger(name: string, bounds: { min: number; max: number }): number | undefined {
  return read(name) === undefined ? undefined : readInteger(name, 0, bounds);
}

function readSwitch(name: string, fallback: boolean): boolean {
  const value = read(name);
  if (value === undefined) return fallback;
  if (value === "on") return true;
  if (value === "off") return false;
  throw new Error(`${name} must be on or off, got "${value}"`);
}

function readUrl(name: string): string | undefined {
  const value = read(name);
  if (value === undefined) return undefined;
  if (!/^(https?|wss?):\/\//.test(value)) throw new Error(`${name} must be an http(s) or ws(s) URL, got "${value}"`);
  return value;
}

function readChainName(): IndexedChainName {
  const value = read("INDEXER_CHAIN_ID");
  if (value === undefined) return "development";
  const entry = Object.entries(CHAIN_IDS).find(([, id]) => String(id) === value);
  if (!entry) {
    throw new Error(`INDEXER_CHAIN_ID must be one of ${Object.values(CHAIN_IDS).join(", ")}, got "${value}"`);
  }
  return entry[0] as IndexedChainName;
}

/** Postgres identifiers: Ponder allows at most 45 characters, and we append the chain identity (about 20). */
function readSchemaPrefix(): string {
  const value = read("INDEXER_SCHEMA_PREFIX") ?? "oro";
  if (!/^[a-z][a-z0-9_]{0,19}$/.test(value)) {
    throw new Error(`INDEXER_SCHEMA_PREFIX must be 1-20 characters of a-z, 0-9 and _, starting with a letter, got "${value}"`);
  }
  return value;
}

/**
 * What NODE_ENV=production must set: the chain is never guessed, the data lives in PostgreSQL, and the chain's
 * RPC is our own (never the local default nor the public, rate-limited one). The compose test checks these.
 */
export const PRODUCTION_REQUIRED = ["INDEXER_CHAIN_ID", "DATABASE_URL"] as const;
export const PRODUCTION_RPC_URL: Record<IndexedChainName, string> = { development: "LOCAL_RPC_URL", worldChain: "WORLDCHAIN_RPC_URL" };

const chainName = readChainName();

if (read("NODE_ENV") === "production") {
  const missing = [...PRODUCTION_REQUIRED, PRODUCTION_RPC_URL[chainName]].filter((name) => read(name) === undefined);
  if (missing.length > 0) {
    throw new Error(`NODE_ENV=production needs these settings, which have development defaults only: ${missing.join(", ")}`);
  }
}
const chainHost = read("CHAIN_HOST") ?? "127.0.0.1";
const chainPort = readInteger("CHAIN_PORT", DEV_PROFILE.ports.chain, { min: 1, max: 65_535 });

const rpcUrls: Record<IndexedChainName, string | undefined> = {
  development: readUrl("LOCAL_RPC_URL") ?? `http://${chainHost}:${chainPort}`,
  // Undefined lets Ponder fall back to viem's public World Chain RPC (rate limited; set your own).
  worldChain: readUrl("WORLDCHAIN_RPC_URL"),
};

export const env = {
  chain: {
    name: chainName,
    id: CHAIN_IDS[chainName],
    rpcUrl: rpcUrls[chainName],
    /**
     * Ponder's RPC cache (its sync tables) lets a new build reindex without asking the RPC again. Off by default
     * on the local chain, which is restarted at will; the benchmark's chain never changes, so it turns it on.
     */
    disableRpcCache: !readSwitch("INDEXER_RPC_CACHE", chainName !== "development"),
    /** Ponder's eth_getLogs block range; unset lets Ponder learn it from the RPC's errors. */
    ethGetLogsBlockRange: readOptionalInteger("INDEXER_GET_LOGS_BLOCK_RANGE", { min: 1, max: 10_000_000 }),
    /** How often Ponder polls for new blocks, in ms (Ponder's default is 1,000). */
    pollingInterval: readInteger("INDEXER_POLLING_INTERVAL_MS", chainName === "development" ? 250 : 1_000, {
      min: 100,
      max: 60_000,
    }),
    /**
     * Ponder throttles each RPC URL it is given, starting at 20 requests per second and creeping up. A
     * node we run ourselves has no such limit, so the URL is listed this many times, one throttle each.
     */
    rpcLanes: readInteger("INDEXER_RPC_LANES", chainName === "development" ? 8 : 1, { min: 1, max: 64 }),
  },
  /** PostgreSQL when set; otherwise the embedded PGlite database. */
  databaseUrl: read("DATABASE_URL"),
  /** The database schema is this prefix, the chain's identity and the indexing fingerprint (src/lib/chain-identity.ts). */
  schemaPrefix: readSchemaPrefix(),
  /** PGlite's data lives in a folder per chain identity under this directory. */
  pgliteRoot: read("PGLITE_ROOT") ?? ".ponder/pglite",
  /** The exact PGlite directory; `pnpm start` sets it to a folder under PGLITE_ROOT named after the chain. */
  pgliteDirectory: read("PGLITE_DIRECTORY"),
  /**
   * How long an event of the indexed contracts may wait to be indexed before GET /health/indexing says the indexer is
   * behind (and answers 503): live indexing takes a few seconds; a minute means it stopped or cannot keep up.
   */
  behindAfterSeconds: readInteger("INDEXER_BEHIND_AFTER_SECONDS", 60, { min: 5, max: 86_400 }),
  /** HTTP port of the indexer's API, GraphQL and SQL endpoints. */
  port: readInteger("PORT", DEV_PROFILE.ports.indexer, { min: 1, max: 65_535 }),
} as const;
