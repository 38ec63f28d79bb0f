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
      // FORCE cannot end an autovacuum worker that is busy with the database after many writes (42501):
      // it finishes in a moment, so try again a few times.
      for (let attempt = 1; ; attempt++) {
        try {
          await run(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          return;
        } catch (error) {
          if ((error as { code?: string }).code !== "42501" || attempt >= 10) throw error;
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        }
      }
    },
  };
}
