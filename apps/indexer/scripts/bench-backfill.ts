/**
 * Indexer benchmark at production size: `pnpm --filter @oro/indexer bench [options]`.
 *
 *   --mints N (or --events N)  mint events to backfill (default 1,000,000; the target is 10,000,000)
 *   --humans H                 humans who make them, each once a round (default N / 5)
 *   --per-block K              mints per block in the backfill (default 100)
 *   --v4-every K               every K-th human is a World ID 4.0 human (default 10; 0: none)
 *   --live [S]                 after the backfill, S seconds (default 60) of live blocks every 2 s
 *   --live-per-block K         mints in each live block (default 1,000)
 *   --database postgres|pglite (default: PostgreSQL when one answers, else PGlite)
 *   --lanes L                  RPC lanes (INDEXER_RPC_LANES; default: the config's, 8 on the local chain id)
 *   --rebuild                  then index everything again into a new schema from Ponder's RPC cache, as a new
 *                              build does in production (the first run records the cache)
 *   --smoke                    a tiny size with a few live blocks, for the test suite (figures meaningless)
 *   --compare-kinds            backfills the same size twice, every human on World ID 3.0, then every human on 4.0
 *                              (each its own Ponder and database), and prints the two side by side: 4.0 humans must
 *                              be indexed at the throughput 3.0 humans get (TARGETS.md); --rounds R sets mints = R × humans
 *
 * The chain is the bench's own JSON-RPC server (scripts/support/synthetic-chain.ts) answering Ponder from blocks and
 * logs computed on request, so the figures are the indexer's, not a node's. Ponder runs as `ponder start` does in
 * production, on a database of its own (PostgreSQL: a database <BENCH_PG_DATABASE_PREFIX, default
 * oro_indexer_bench>_* created and dropped here, with BENCH_PG_ADMIN_URL, default
 * postgresql://oro:oro@127.0.0.1:5432/postgres). It prints events/s from Ponder's first to last indexed event, the
 * peak RSS of the Ponder process, the load average, the live head lag, and checks that every event was indexed (the
 * totals Ponder serves against the chain's).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@oro/dev-stack";
import { compareKinds } from "./support/bench-compare-kinds";
import { parseOptions } from "./support/bench-options";
import { runBackfill, ponderEnv, reportBackfill, runLive, runRebuild, type BenchRun } from "./support/bench-phases";
import { ADMIN_URL, adminQuery, DATABASE_PREFIX, dropDatabase, postgresAvailable } from "./support/bench-postgres";
import { format } from "./support/bench-readings";
import { FIRST_MINT_BLOCK, SyntheticChain, startSyntheticRpc } from "./support/synthetic-chain";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<void> {
  if (process.argv.includes("--compare-kinds")) return compareKinds(process.argv.slice(2), fileURLToPath(import.meta.url), packageDir);
  const options = parseOptions(process.argv.slice(2));
  const database = options.database ?? ((await postgresAvailable()) ? "postgres" : "pglite");
  const chain = new SyntheticChain({
    mints: options.mints,
    humans: options.humans,
    perBlock: options.perBlock,
    v4Every: options.v4Every,
    tail: 40,
    livePerBlock: options.livePerBlock,
    liveIntervalMs: 2_000,
    blockTime: 2,
  });
  chain.selfCheck();
  const events = chain.handledEventsForMints(options.mints);
  const blocks = chain.lastBackfillMintBlock - FIRST_MINT_BLOCK + 1;
  console.log(
    `Chain source: ${format(options.mints)} mints by ${format(chain.humansForMints(options.mints))} humans (every ${options.v4Every || "—"}th a World ID 4.0 human), ${options.perBlock} a block over ${format(blocks)} blocks: ${format(events)} events with handlers; ${database === "postgres" ? "PostgreSQL" : "PGlite"}`,
  );

  const rpc = await startSyntheticRpc(chain);
  const port = await freePort();
  const dbName = `${DATABASE_PREFIX}_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "oro-bench-pglite-"));
  const databaseUrl = database === "postgres" ? ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`) : "";
  const run: BenchRun = {
    options,
    database,
    chain,
    rpc,
    events,
    base: `http://127.0.0.1:${port}`,
    port,
    schema: `bench_${Date.now().toString(36)}`,
    dbName,
    databaseUrl,
    env: ponderEnv(options, port, rpc.url, databaseUrl, dataDir),
    packageDir,
    ponder: undefined,
  };
  let failed = false;
  try {
    if (database === "postgres") await adminQuery(`CREATE DATABASE ${dbName}`);
    const measures = await runBackfill(run);
    await reportBackfill(run, measures);
    if (options.liveSeconds > 0 && run.ponder) await runLive(run, run.ponder);
    if (options.rebuild && run.ponder) await runRebuild(run, run.ponder);
  } catch (error) {
    failed = true;
    if (run.ponder && process.env.BENCH_DEBUG) console.error(run.ponder.output().slice(-6_000));
    throw error;
  } finally {
    chain.stopLive();
    await run.ponder?.stop();
    await rpc.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (database === "postgres") {
      await dropDatabase(dbName).catch((error: unknown) => {
        console.error(`could not drop the database ${dbName}: ${String(error)}`);
        failed = true;
      });
    }
    if (failed) process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
