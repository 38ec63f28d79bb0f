/** The PostgreSQL the indexer bench runs on when one answers: a database of its own per run, created and dropped. */
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";

export const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgresql://oro:oro@127.0.0.1:5432/postgres";
// A shared PostgreSQL gives each user its own database names.
export const DATABASE_PREFIX = process.env.BENCH_PG_DATABASE_PREFIX ?? "oro_indexer_bench";
if (!/^[a-z][a-z0-9_]{0,39}$/.test(DATABASE_PREFIX)) throw new Error(`BENCH_PG_DATABASE_PREFIX must be a-z, 0-9 and _, got "${DATABASE_PREFIX}"`);

export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Drops the bench's database whoever is still on it. `DROP DATABASE … WITH (FORCE)` is refused (42501, "must be a
 * member of the role whose process is being terminated") while an autovacuum worker, a superuser's process, works on
 * it, which a backfill's many writes start: so this role's own connections are ended first, then a plain DROP DATABASE
 * stops the autovacuum workers itself (and waits up to 5 s for the ended connections to go).
 */
export async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND usename = current_user AND pid <> pg_backend_pid()", [name]);
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (error) {
        // 55006: a connection of this role came back in between (a pool reconnecting): end it again.
        if ((error as { code?: string }).code !== "55006" || attempt >= 5) throw error;
      }
    }
  } finally {
    await client.end();
  }
}

/** CPU seconds of the PostgreSQL backends serving a database (their title names it), summed over their lives. */
export function postgresBackendTicks(dbName: string, seen: Map<number, number>): void {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.startsWith("postgres:") || !cmdline.includes(` ${dbName} `)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      seen.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone
    }
  }
}

export interface DiskUse {
  /** Ponder's sync tables: every block, transaction and log it fetched. */
  rpcCache: number;
  /** The schema the handlers write. */
  tables: number;
}

/** What the indexer's data takes on disk (tables with their indexes and TOAST). */
export async function diskUse(client: pg.Client, schema: string): Promise<DiskUse> {
  const { rows } = await client.query<{ schema: string; bytes: string }>(
    `SELECT n.nspname AS schema, sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname IN ('ponder_sync', $1) GROUP BY 1`,
    [schema],
  );
  const of = (name: string) => Number(rows.find((row) => row.schema === name)?.bytes ?? 0);
  return { rpcCache: of("ponder_sync"), tables: of(schema) };
}
