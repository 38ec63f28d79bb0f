import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../../src/app.js";
import type { ConnectionLimits } from "../../src/connection-limits.js";
import { loadConfig, type Config } from "../../src/env.js";
import type { ChainService } from "../../src/services/chain/chain.js";
import type { IndexerClient } from "../../src/services/indexer/client.js";
import type { PayoutWorkerOptions } from "../../src/services/payouts/payout-worker.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

export interface TestAppOptions {
  env?: Record<string, string>;
  indexer?: IndexerClient;
  chain?: ChainService;
  testDatabase?: TestDatabase;
  afterPayoutSubmit?: PayoutWorkerOptions["afterSubmit"];
  connectionLimits?: ConnectionLimits;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: TestDatabase;
  close(): Promise<void>;
}

/** The development profile, quiet, without background workers, with a chain that is not there. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    WORKERS_ENABLED: "false",
    RPC_URL: "http://127.0.0.1:9",
    INDEXER_URL: "http://127.0.0.1:9",
    // The domain of the sign-in messages test/helpers/siwe.ts writes.
    SIWE_DOMAINS: "oro.example",
    ...env,
  });
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.env);
  const db = options.testDatabase ?? (await createTestDatabase());
  const ownsDatabase = options.testDatabase === undefined;
  // The app closes the database it is given; a shared test database outlives several app instances.
  const database = ownsDatabase ? db.database : { ...db.database, close: () => Promise.resolve() };
  const app = await buildApp({
    config,
    database,
    indexer: options.indexer,
    chain: options.chain,
    afterPayoutSubmit: options.afterPayoutSubmit,
    connectionLimits: options.connectionLimits,
    logger: false,
  });
  await app.ready();
  return {
    app,
    config,
    db,
    async close() {
      await app.close();
      if (ownsDatabase) await db.drop();
    },
  };
}

/**
 * The test file's app: built before its tests and closed after them (the hooks are registered here, in the file's
 * order: one registered before it is there when it is built). Its `app`, `config` and `db` are read once the tests run;
 * `options` may be a function, read when the app is built.
 */
export function testAppForFile(options: TestAppOptions | (() => TestAppOptions) = {}): TestApp {
  let built: TestApp | undefined;
  const current = () => {
    if (!built) throw new Error("the file's test app is built before its tests (beforeAll)");
    return built;
  };
  beforeAll(async () => {
    built = await createTestApp(typeof options === "function" ? options() : options);
  });
  afterAll(async () => {
    await built?.close();
  });
  return {
    get app() {
      return current().app;
    },
    get config() {
      return current().config;
    },
    get db() {
      return current().db;
    },
    close: () => current().close(),
  };
}
