/**
 * Backfill benchmark: `pnpm --filter @oro/indexer bench [N] [--lanes L]`.
 *
 * Starts its own local chain, creates N mint events on it (N/2 humans who each mint twice, one wait
 * apart, to fresh addresses; many mints per block, as on a busy chain), then backfills them with Ponder
 * on PGlite and, when DATABASE_URL is set or a PostgreSQL answers on 127.0.0.1:5432 without a password,
 * on PostgreSQL. Prints events per second beside the reference figures of shared/TARGETS.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { encodeFunctionData, keccak256, numberToHex, parseGwei, toHex, type Address, type Hex } from "viem";
import { buildDevProof, deployments, devNullifierHash, oroAbi } from "@oro/clients";
import { chainActions, startLocalChain, type LocalChain } from "./support/local-chain";
import { freePort, startService, waitForHttpOk } from "@oro/dev-stack";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REFERENCE = { events: 1_512, postgresSeconds: 7.3, pgliteSeconds: 33, targetPostgresEventsPerSecond: 2_000 };
const WAIT = 3_600;

interface Options {
  mints: number;
  lanes: number | undefined;
  /** Mints per block; undefined fills each block up to its gas limit (about 700 mints). */
  perBlock: number | undefined;
}

function parseOptions(argv: string[]): Options {
  let mints = 20_000;
  let lanes: number | undefined;
  let perBlock: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") continue;
    if (arg === "--lanes") {
      lanes = Number(argv[++i]);
      if (!Number.isInteger(lanes) || lanes < 1) throw new Error("--lanes takes a positive integer");
    } else if (arg === "--per-block") {
      perBlock = Number(argv[++i]);
      if (!Number.isInteger(perBlock) || perBlock < 1) throw new Error("--per-block takes a positive integer");
    } else if (arg !== undefined && /^\d+$/.test(arg)) {
      mints = Number(arg);
    } else {
      throw new Error(`usage: bench-backfill.ts [N] [--lanes L] [--per-block K], got "${arg}"`);
    }
  }
  if (mints < 2) throw new Error("N must be at least 2");
  return { mints, lanes, perBlock };
}

/**
 * Sends JSON-RPC requests in one HTTP request and returns the results in order. Each batch opens its own
 * connection: a kept-alive socket that the node closes between two batches would lose a batch of
 * transactions, which cannot simply be sent again.
 */
async function rpcBatch(rpcUrl: string, calls: { method: string; params: unknown[] }[]): Promise<unknown[]> {
  const body = JSON.stringify(calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call })));
  const text = await new Promise<string>((resolve, reject) => {
    const request = http.request(
      rpcUrl,
      { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (response) => {
        let data = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (data += chunk));
        response.on("end", () => resolve(data));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
  const answers = JSON.parse(text) as { id: number; result?: unknown; error?: { message: string } }[];
  const results: unknown[] = [];
  for (const answer of answers.sort((a, b) => a.id - b.id)) {
    if (answer.error) throw new Error(`JSON-RPC error: ${answer.error.message}`);
    results.push(answer.result);
  }
  return results;
}

/** A fresh, deterministic receiving address per human. */
function receiverOf(index: number): Address {
  return `0x${keccak256(toHex(`oro-bench-receiver-${index}`)).slice(26)}`;
}

/** Logs the two indexed contracts emitted from their creation to `toBlock`: the events Ponder processes. */
async function countContractEvents(chain: LocalChain, toBlock: number): Promise<number> {
  const address = [chain.deployment.oro.address, chain.deployment.referralClaim.address];
  let count = 0;
  for (let from = chain.deployment.oro.startBlock; from <= toBlock; from += 5) {
    const to = Math.min(from + 4, toBlock);
    count += (await chain.publicClient.getLogs({ address, fromBlock: BigInt(from), toBlock: BigInt(to) })).length;
  }
  return count;
}

async function createMints(
  chain: LocalChain,
  mints: number,
  perBlock: number | undefined,
): Promise<{ blocks: number; seconds: number; events: number }> {
  const started = Date.now();
  const actions = chainActions(chain);
  const [owner, , ...senders] = chain.accounts;
  if (!owner || senders.length === 0) throw new Error("the local chain has too few accounts");
  const { worldId } = deployments[31337];
  await actions.setWaitBetweenMints(owner, WAIT);
  const humans = Math.ceil(mints / 2);
  const firstBlock = Number(await chain.publicClient.getBlockNumber()) + 1;

  await actions.testClient.setAutomine(false);
  try {
    for (const [round, count] of [[0, humans], [1, mints - humans]] as const) {
      if (round === 1) await actions.testClient.increaseTime({ seconds: WAIT });
      // Every field explicit: left out, Hardhat fills nonce and fees from a "pending" block that it rebuilds
      // from the whole pool for each new transaction, which grows without bound with a few thousand queued.
      const nonces = (await rpcBatch(
        chain.rpcUrl,
        senders.map((sender) => ({ method: "eth_getTransactionCount", params: [sender, "latest"] })),
      )) as Hex[];
      const nextNonce = nonces.map((nonce) => Number(nonce));
      const calls = Array.from({ length: count }, (_, human) => {
        const receiver = receiverOf(human);
        const { root, nullifierHash, proof } = buildDevProof({
          receiver,
          nullifierHash: devNullifierHash(`bench-${human}`),
          appId: worldId.appId,
          action: worldId.action,
        });
        const data: Hex = encodeFunctionData({ abi: oroAbi, functionName: "mint", args: [root, nullifierHash, proof, receiver] });
        const senderIndex = human % senders.length;
        const nonce = nextNonce[senderIndex] ?? 0;
        nextNonce[senderIndex] = nonce + 1;
        return {
          method: "eth_sendTransaction",
          params: [
            {
              from: senders[senderIndex],
              to: chain.deployment.oro.address,
              data,
              nonce: numberToHex(nonce),
              // A first mint uses about 85k gas on the development router.
              gas: numberToHex(120_000),
              // Full blocks raise the base fee 12.5% each: leave room for a few dozen of them.
              maxFeePerGas: numberToHex(parseGwei("5000")),
              maxPriorityFeePerGas: numberToHex(parseGwei("1")),
            },
          ],
        };
      });
      const pendingCount = async () =>
        Number((await rpcBatch(chain.rpcUrl, [{ method: "eth_getBlockTransactionCountByNumber", params: ["pending"] }]))[0]);
      const chunk = perBlock ?? calls.length;
      for (let start = 0; start < calls.length; start += chunk) {
        const blockCalls = calls.slice(start, start + chunk);
        for (let i = 0; i < blockCalls.length; i += 500) await rpcBatch(chain.rpcUrl, blockCalls.slice(i, i + 500));
        // Mine until the pool is empty: each block takes as many mints as its gas limit allows.
        for (let blocks = 1; ; blocks++) {
          await actions.testClient.mine({ blocks: 1 });
          const pending = await pendingCount();
          if (pending === 0) break;
          if (perBlock !== undefined) throw new Error(`${perBlock} mints do not fit in one block`);
          if (blocks > count) throw new Error(`the pool still holds ${pending} transactions after ${blocks} blocks`);
        }
        if (process.env.BENCH_DEBUG) console.log(`  ${start + blockCalls.length} mined (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
      process.stdout.write(`  round ${round + 1}: ${count} mints mined (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    }
  } finally {
    await actions.testClient.setAutomine(true);
  }
  const lastBlock = Number(await chain.publicClient.getBlockNumber());
  let minted = 0;
  for (let from = firstBlock; from <= lastBlock; from += 5) {
    const to = Math.min(from + 4, lastBlock);
    minted += (await actions.oro.getEvents.Minted({}, { fromBlock: BigInt(from), toBlock: BigInt(to) })).length;
  }
  if (minted !== mints) throw new Error(`expected ${mints} Minted events, the chain has ${minted}`);
  // Push every mint past Ponder's 30-block finality window: the whole set is then backfill, not live indexing.
  await actions.mineEmptyBlocks(31);
  const events = await countContractEvents(chain, lastBlock);
  return { blocks: lastBlock - firstBlock + 1, seconds: (Date.now() - started) / 1000, events };
}

interface BackfillResult {
  database: string;
  backfillSeconds: number;
  readySeconds: number;
  rpcSeconds: number | undefined;
}

async function backfill(chain: LocalChain, database: { kind: "pglite" } | { kind: "postgres"; url: string }, lanes: number | undefined): Promise<BackfillResult> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "oro-bench-pglite-"));
  const schema = `bench_${Date.now().toString(36)}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PONDER_TELEMETRY_DISABLED: "true",
    PONDER_LOG_LEVEL: process.env.BENCH_PONDER_LOG_LEVEL ?? "info",
    LOCAL_RPC_URL: chain.rpcUrl,
    INDEXER_CHAIN_ID: "31337",
    DATABASE_URL: database.kind === "postgres" ? database.url : "",
    PGLITE_DIRECTORY: dataDir,
    ...(lanes === undefined ? {} : { INDEXER_RPC_LANES: String(lanes) }),
  };
  const started = Date.now();
  const ponder = startService("ponder", path.join(packageDir, "node_modules/.bin/ponder"), ["start", "--schema", schema, "--port", String(port)], {
    cwd: packageDir,
    env,
  });
  try {
    await waitForHttpOk(`http://127.0.0.1:${port}/ready`, 1_800_000, ponder);
    const readySeconds = (Date.now() - started) / 1000;
    const output = ponder.output();
    if (process.env.BENCH_PONDER_LOG) writeFileSync(`${process.env.BENCH_PONDER_LOG}.${database.kind}`, output);
    // Ponder rounds its own durations to whole seconds; its log lines carry millisecond clock times.
    const backfillSeconds = between(output, "Started backfill indexing", "Completed backfill indexing across all chains");
    if (backfillSeconds === undefined) throw new Error(`Ponder did not log its backfill:\n${output.slice(-3_000)}`);
    const rpcSeconds = between(output, "Started fetching backfill JSON-RPC data", "Finished fetching backfill JSON-RPC data");
    return { database: database.kind === "pglite" ? "PGlite" : "PostgreSQL", backfillSeconds, readySeconds, rpcSeconds };
  } finally {
    await ponder.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (database.kind === "postgres") {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }
}

/** Seconds between the log lines containing `from` and `to` (Ponder prefixes each with HH:MM:SS.mmm). */
function between(output: string, from: string, to: string): number | undefined {
  const clock = (text: string) => {
    const line = output.split("\n").find((candidate) => candidate.includes(text));
    const match = line === undefined ? null : /(\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line);
    if (!match) return undefined;
    const [, h, m, s, ms] = match;
    return Number(h) * 3_600 + Number(m) * 60 + Number(s) + Number(ms) / 1_000;
  };
  const start = clock(from);
  const end = clock(to);
  if (start === undefined || end === undefined) return undefined;
  return (end - start + 86_400) % 86_400;
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/** DATABASE_URL, or a local PostgreSQL that lets the postgres role in without a password. */
async function findPostgres(): Promise<string | undefined> {
  const configured = process.env.DATABASE_URL?.trim();
  if (configured) return configured;
  if (!(await portOpen(5432))) return undefined;
  const url = "postgresql://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch {
    console.log("A PostgreSQL listens on 127.0.0.1:5432 but refuses the postgres role without a password: set DATABASE_URL.");
    return undefined;
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  console.log(`Creating ${options.mints} mint events on a fresh local chain...`);
  const chain = await startLocalChain();
  try {
    const created = await createMints(chain, options.mints, options.perBlock);
    console.log(`  ${options.mints} mints in ${created.blocks} blocks, ${created.seconds.toFixed(1)} s\n`);

    const results: BackfillResult[] = [];
    console.log("Backfilling on PGlite...");
    results.push(await backfill(chain, { kind: "pglite" }, options.lanes));
    const postgres = await findPostgres();
    if (postgres) {
      console.log("Backfilling on PostgreSQL...");
      results.push(await backfill(chain, { kind: "postgres", url: postgres }, options.lanes));
    } else {
      console.log("No PostgreSQL (set DATABASE_URL to measure it).");
    }

    const reference = (db: string) =>
      db === "PostgreSQL"
        ? `${REFERENCE.events} events in ${REFERENCE.postgresSeconds} s = ${Math.round(REFERENCE.events / REFERENCE.postgresSeconds)} events/s; target >= ${REFERENCE.targetPostgresEventsPerSecond}`
        : `${REFERENCE.events} events in ${REFERENCE.pgliteSeconds} s = ${Math.round(REFERENCE.events / REFERENCE.pgliteSeconds)} events/s`;
    console.log(
      `\nBackfill of ${options.mints} mints in ${created.blocks} blocks: ${created.events} events (every log of ORO and ReferralClaim, deploy included); RPC lanes ${options.lanes ?? "default"}`,
    );
    console.log("| database | events | backfill s | of which RPC fetch s | events/s | mints/s | start to /ready s | reference (TARGETS.md) |");
    console.log("|---|---|---|---|---|---|---|---|");
    for (const r of results) {
      console.log(
        `| ${r.database} | ${created.events} | ${r.backfillSeconds.toFixed(2)} | ${r.rpcSeconds?.toFixed(2) ?? "?"} | ${Math.round(created.events / r.backfillSeconds)} | ${Math.round(options.mints / r.backfillSeconds)} | ${r.readySeconds.toFixed(1)} | ${reference(r.database)} |`,
      );
    }
  } finally {
    await chain.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
