import { randomBytes } from "node:crypto";
import pg from "pg";

/** A new, empty PostgreSQL database beside the one `serverUrl` names (tests, the benchmark); `drop` removes it. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function run(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Drops the database `name` whoever is still on it. `DROP DATABASE … WITH (FORCE)` is refused (42501) while an
 * autovacuum worker, a superuser's process, works on it, which many writes start: so this role's own connections are
 * ended first, then a plain DROP DATABASE stops the autovacuum workers itself (and waits up to 5 s for the rest to go).
 */
async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND usename = current_user AND pid <> pg_backend_pid()", [name]);
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}"`);
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

/** Needs a role that may CREATE DATABASE. The name is `<prefix>_<random hex>`. */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await run(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await dropDatabase(serverUrl, name);
    },
  };
}
