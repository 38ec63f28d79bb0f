import { openAsBlob } from "node:fs";
import { inject } from "vitest";
import { openDatabase, type Database } from "../../src/db/database.js";
import type { Migration } from "../../src/db/migrate.js";
import { createScratchDatabase } from "../../src/db/scratch.js";

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or in the "postgres" test project
 * (vitest.config.ts, when DATABASE_URL is set) a new PostgreSQL database created next to that URL's and
 * dropped afterwards.
 */
export interface TestDatabase {
  database: Database;
  kind: "pglite" | "postgres";
  /** The URL of the created PostgreSQL database (postgres only), e.g. for a second process. */
  url?: string;
  drop(): Promise<void>;
}

// The test harness chooses its database from the environment like CI does; the app itself reads config
// only through src/env.ts.
const serverUrl = process.env.ORO_TEST_DATABASE === "postgres" ? process.env.DATABASE_URL : undefined;

// A migrated PGlite data folder to start from (test/global-setup.ts), read once per file.
const migratedDumpFile = inject("migratedPgliteDump");
let migratedDump: Promise<Blob> | undefined;

export function testDatabaseKind(): "pglite" | "postgres" {
  return serverUrl ? "postgres" : "pglite";
}

/** `migrations`: apply only these (a migration's own test starts from the ones before it). */
export async function createTestDatabase(migrations?: Migration[]): Promise<TestDatabase> {
  if (!serverUrl) {
    // A database with only some migrations (a migration's own test) starts empty; the others from the migrated dump,
    // which migrate() then finds complete.
    const snapshot = migrations === undefined && migratedDumpFile ? await (migratedDump ??= openAsBlob(migratedDumpFile)) : undefined;
    const database = await openDatabase({ kind: "pglite", dataDir: "memory://", ...(snapshot ? { snapshot } : {}) });
    await database.migrate(migrations);
    return { database, kind: "pglite", drop: () => database.close() };
  }
  // ORO_TEST_DATABASE_PREFIX: whose databases these are, when several people's suites share one server.
  const scratch = await createScratchDatabase(serverUrl, process.env.ORO_TEST_DATABASE_PREFIX ?? "oro_api_test");
  // The tests measure what the database holds, not how fast a connection comes: on a loaded machine opening one
  // took over the production 3 s (a 503 in a test's own sign-in).
  const database = await openDatabase({ kind: "postgres", url: scratch.url, connectTimeoutMs: 30_000 });
  await database.migrate(migrations);
  return {
    database,
    kind: "postgres",
    url: scratch.url,
    async drop() {
      await database.close().catch(() => undefined);
      await scratch.drop();
    },
  };
}
