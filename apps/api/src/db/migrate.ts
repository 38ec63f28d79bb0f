import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Applies the SQL migrations under prisma/migrations in name order and records each in Prisma's
 * `_prisma_migrations` table, exactly as `prisma migrate deploy` would (the Prisma CLI cannot run here).
 * The same runner serves PostgreSQL and the embedded PGlite database through `SqlConnection`.
 */

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "prisma", "migrations");

/** The little a migration needs from a database connection. */
export interface SqlConnection {
  /** Runs one parameterised statement and returns its rows. */
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements. */
  exec(sql: string): Promise<void>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** An arbitrary constant: serialises migration runs of several API processes starting at once. */
const MIGRATION_LOCK_KEY = 72_707_201;

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      // Prisma's checksum: sha-256 of the file's bytes, hex.
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

export async function applyMigrations(db: SqlConnection, migrations?: Migration[]): Promise<MigrationResult> {
  const all = migrations ?? (await readMigrations());
  await db.query("SELECT 1 AS locked FROM pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await db.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await db.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new Error(`migration ${failed.migration_name} failed earlier and was not rolled back: fix the database first`);
    }
    const done = new Map(rows.filter((row) => row.finished_at !== null).map((row) => [row.migration_name, row.checksum]));
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const migration of all) {
      const checksum = done.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was changed after it was applied (checksum differs)`);
        }
        result.alreadyApplied.push(migration.name);
        continue;
      }
      await applyOne(db, migration);
      result.applied.push(migration.name);
    }
    return result;
  } finally {
    await db.query("SELECT pg_advisory_unlock($1) AS unlocked", [MIGRATION_LOCK_KEY]);
  }
}

async function applyOne(db: SqlConnection, migration: Migration): Promise<void> {
  const id = randomUUID();
  await db.exec("BEGIN");
  try {
    await db.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 0)`,
      [id, migration.checksum, migration.name],
    );
    await db.exec(migration.sql);
    await db.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
    await db.exec("COMMIT");
  } catch (error) {
    await db.exec("ROLLBACK");
    throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}

type ReadQuery = <Row>(sql: string) => Promise<Row[]>;

/** The migrations of `all` that the database has not applied yet, by name (a read: it takes no lock). */
export async function pendingMigrations(query: ReadQuery, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await readMigrations());
  const [table] = await query<{ present: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`);
  if (!table?.present) return all.map((migration) => migration.name);
  const rows = await query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((row) => `${row.migration_name} ${row.checksum}`));
  return all.filter((migration) => !applied.has(`${migration.name} ${migration.checksum}`)).map((migration) => migration.name);
}

/**
 * Waits until the database holds every migration this build carries, applied by the release step (the compose
 * file's `migrate` service) rather than by this process; an unreachable database counts as not yet. Past `waitMs`
 * it throws, naming what is missing, so that the orchestrator restarts the replica (and a rolling update rolls back).
 */
export async function waitForMigrations(
  query: ReadQuery,
  { waitMs, pollMs = 1_000, migrations, onWait }: { waitMs: number; pollMs?: number; migrations?: Migration[]; onWait?: (pending: string[]) => void },
): Promise<void> {
  const deadline = Date.now() + waitMs;
  let pending: string[] = [];
  let lastError: unknown;
  for (let first = true; ; first = false) {
    try {
      pending = await pendingMigrations(query, migrations);
      lastError = undefined;
      if (pending.length === 0) return;
      if (first) onWait?.(pending);
    } catch (error) {
      lastError = error;
    }
    if (Date.now() + pollMs > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const why = lastError === undefined ? `not applied: ${pending.join(", ")}` : `the database did not answer (${lastError instanceof Error ? lastError.message : "unknown error"})`;
  throw new Error(`waited ${Math.round(waitMs / 1000)} s for the release step's migrations: ${why}`);
}
