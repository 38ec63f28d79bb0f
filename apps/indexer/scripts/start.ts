/**
 * `pnpm start` / `pnpm dev`: finds which chain the RPC serves, then runs Ponder on storage named after it,
 * so that a restarted local chain never meets the rows indexed from its previous life.
 *
 *   tsx scripts/start.ts [start|dev] [extra ponder options]
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPublicClient, http } from "viem";
import { hardhat, worldchain } from "viem/chains";
import type { env as Env } from "../src/env";
import { oroAbi, referralClaimAbi } from "@oro/clients";
import { chainIdentity, pgliteDirectoryFor, schemaFor } from "../src/lib/chain-identity";
import { deploymentFor } from "../src/lib/deployment";
import { indexingFiles, indexingFingerprint } from "../src/lib/indexing-fingerprint";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Loaded in main(): a configuration error (NODE_ENV=production without its settings) is then one line, not a trace.
let env: typeof Env;

async function resolveIdentity(): Promise<string> {
  const deployment = deploymentFor(env.chain.id);
  const client = createPublicClient({
    chain: env.chain.name === "development" ? hardhat : worldchain,
    transport: http(env.chain.rpcUrl, { retryCount: 0, timeout: 10_000 }),
  });
  const where = env.chain.rpcUrl ?? "the default World Chain RPC";
  let servedChainId: number;
  try {
    servedChainId = await client.getChainId();
  } catch {
    throw new Error(`no chain answers at ${where}: start it first (the local one with \`pnpm start\` at the root)`);
  }
  if (servedChainId !== env.chain.id) {
    throw new Error(`${where} serves chain ${servedChainId}, but the indexer is configured for chain ${env.chain.id}`);
  }
  const code = await client.getCode({ address: deployment.oro.address });
  if (!code || code === "0x") {
    throw new Error(
      `ORO is not deployed at ${deployment.oro.address} on chain ${env.chain.id} (a restarted chain without its deploy?)`,
    );
  }
  const creationBlock = await client.getBlock({ blockNumber: BigInt(deployment.oro.startBlock) });
  return chainIdentity(env.chain.id, creationBlock.hash);
}

async function main(): Promise<void> {
  ({ env } = await import("../src/env"));
  const [mode = "start", ...extra] = process.argv.slice(2);
  if (mode !== "start" && mode !== "dev") throw new Error(`usage: start.ts [start|dev] [ponder options], got "${mode}"`);

  const identity = await resolveIdentity();
  // The contracts as ponder.config.ts gives them to Ponder, and the indexing code: a new build, a new schema.
  const contracts = { abis: [oroAbi, referralClaimAbi], deployment: deploymentFor(env.chain.id) };
  const fingerprint = indexingFingerprint({ contracts, files: indexingFiles(packageDir) });
  // Ponder refuses to run `dev` on a schema that `start` built (and vice versa it would rebuild), so each has its own.
  const schema = schemaFor(mode === "dev" ? `${env.schemaPrefix}_dev` : env.schemaPrefix, identity, fingerprint);
  const childEnv: NodeJS.ProcessEnv = { PONDER_TELEMETRY_DISABLED: "true", ...process.env };
  if (env.databaseUrl) {
    console.log(`indexing chain ${env.chain.id} (${identity}) into PostgreSQL schema ${schema}`);
  } else {
    const directory = path.resolve(packageDir, env.pgliteDirectory ?? pgliteDirectoryFor(env.pgliteRoot, identity));
    mkdirSync(directory, { recursive: true });
    childEnv.PGLITE_DIRECTORY = directory;
    console.log(`indexing chain ${env.chain.id} (${identity}) into PGlite ${directory}, schema ${schema}`);
  }

  const ponder = spawn(
    path.join(packageDir, "node_modules/.bin/ponder"),
    [mode, "--schema", schema, "--port", String(env.port), ...extra],
    { cwd: packageDir, env: childEnv, stdio: "inherit" },
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => ponder.kill(signal));
  }
  ponder.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
