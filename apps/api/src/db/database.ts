import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.js";
import { applyMigrations, type Migration, type MigrationResult, type SqlConnection } from "./migrate.js";

/**
 * Where the data lives: PostgreSQL by URL, or the embedded PGlite (a folder, or "memory://" for tests). A PGlite
 * database may start from `snapshot`, a dump of another's data folder (PGlite's dumpDataDir): the tests start each
 * database from one migrated copy instead of creating a cluster each time (about 3 s of CPU against 0.7 s here).
 */
/** `connectTimeoutMs`: how long a query may wait for a connection of the pool (a free one, or a new one opened). */
export type DatabaseTarget = { kind: "postgres"; url: string; poolSize?: number; connectTimeoutMs?: number } | { kind: "pglite"; dataDir: string; snapshot?: Blob };

/** pg's own default. */
const DEFAULT_POOL_SIZE = 10;
const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;

/**
 * A statement on a hot path, run on the driver rather than through Prisma (whose query engine costs the API 80–150 µs
 * of CPU a query against 26–49 through `pg`). On PostgreSQL it is a named prepared statement: each connection parses
 * and plans it once. Its SQL casts every column to a type that `pg` and PGlite parse alike (text, int4, float8, bool,
 * json; times as epoch milliseconds, numerics as text), so development, tests and production read the same rows.
 * `Values` and `Row` are what the SQL takes and returns: declare them beside the text.
 */
export interface HotStatement<Values extends readonly unknown[], Row> {
  readonly name: string;
  readonly text: string;
  /** Never set: carries the types of the values and rows. */
  readonly types?: { values: Values; row: Row };
}

/** Every hot statement's text by name: PostgreSQL refuses a second text under a name a connection has prepared. */
const hotStatementTexts = new Map<string, string>();

export function hotStatement<Values extends readonly unknown[], Row>(name: string, text: string): HotStatement<Values, Row> {
  const known = hotStatementTexts.get(name);
  if (known !== undefined && known !== text) throw new Error(`hot statement "${name}" is already defined with another text`);
  hotStatementTexts.set(name, text);
  return { name, text };
}

export interface Database {
  prisma: PrismaClient;
  kind: DatabaseTarget["kind"];
  /** Runs a hot statement (see HotStatement) on the same connections as `prisma`. */
  run<Values extends readonly unknown[], Row>(statement: HotStatement<Values, Row>, values: Values): Promise<Row[]>;
  /** Applies prisma/migrations (or the given list) and records them in _prisma_migrations. */
  migrate(migrations?: Migration[]): Promise<MigrationResult>;
  /**
   * LISTEN on a channel (NOTIFY reaches every process on the same database). On PostgreSQL a dedicated
   * connection, reconnected when it drops; `onReconnect` then runs, because messages may have been missed.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<Unlisten>;
  close(): Promise<void>;
}

export type Unlisten = () => Promise<void>;

const LISTEN_RETRY_MS = 1_000;

/** A LISTEN connection of its own that comes back after the server or the network drops it. */
async function listenPostgres(url: string, channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<Unlisten> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const quoted = `"${channel.replace(/"/g, '""')}"`;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    next.on("error", () => reconnectSoon(next));
    next.on("end", () => reconnectSoon(next));
    await next.connect();
    await next.query(`LISTEN ${quoted}`);
    client = next;
  }

  function reconnectSoon(broken: pg.Client) {
    if (stopped || client !== broken) return;
    client = undefined;
    broken.end().catch(() => undefined);
    retry = setTimeout(() => {
      connect().then(
        () => onReconnect?.(),
        () => reconnectSoon(broken),
      );
    }, LISTEN_RETRY_MS);
    retry.unref();
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

// What a database that is gone, restarting or out of connections throws (through Prisma's adapter, pg's pool, or as
// the cause of either): answered 503 and retried by the caller, never a 500 that pages as a bug.
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "57P01", "57P02", "57P03", "53300", "P1001", "P1002", "P1017", "P2024"]);
const UNAVAILABLE_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|connection (?:is )?closed|Client has encountered a connection error|the database system is (?:starting up|shutting down)|too many clients/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Object && depth < 6; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === "postgres" ? openPostgres(target.url, target.poolSize ?? DEFAULT_POOL_SIZE, target.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) : openPglite(target.dataDir, target.snapshot);
}

function openPostgres(url: string, poolSize: number, connectTimeoutMs: number): Database {
  // One pool for Prisma and the hot statements: one set of limits and timeouts. A connection that takes longer
  // than connectTimeoutMs fails, so that a request answers 503 soon when PostgreSQL is gone (a connection to an address that no
  // longer answers would otherwise wait for the kernel's own timeout).
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, max: poolSize });
  // An idle connection that breaks is dropped by the pool and replaced on the next query; unheard, its error would
  // end the process.
  pool.on("error", () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  let closed: Promise<void> | undefined;
  return {
    prisma,
    kind: "postgres",
    run: async <Values extends readonly unknown[], Row>(statement: HotStatement<Values, Row>, values: Values) =>
      (await pool.query<Row & pg.QueryResultRow>({ name: statement.name, text: statement.text, values: [...values] })).rows,
    async migrate(migrations) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await applyMigrations({
          query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
          exec: async (sql) => {
            await client.query(sql);
          },
        }, migrations);
      } finally {
        await client.end();
      }
    },
    listen: (channel, onMessage, onReconnect) => listenPostgres(url, channel, onMessage, onReconnect),
    close() {
      // Once, however often it is called (the app's onClose and a test's teardown both close): a pool ends only once.
      closed ??= prisma.$disconnect().then(() => pool.end());
      return closed;
    },
  };
}

async function openPglite(dataDir: string, snapshot: Blob | undefined): Promise<Database> {
  if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir, snapshot ? { loadDataDir: snapshot } : undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const connection: SqlConnection = {
    query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
    exec: async (sql) => {
      await pglite.exec(sql);
    },
  };
  return {
    prisma,
    kind: "pglite",
    // The same SQL text, through PGlite's own query (it has no named statements to keep).
    run: async <Values extends readonly unknown[], Row>(statement: HotStatement<Values, Row>, values: Values) =>
      (await pglite.query<Row>(statement.text, [...values])).rows,
    migrate: (migrations) => applyMigrations(connection, migrations),
    async listen(channel, onMessage) {
      const unlisten = await pglite.listen(channel, onMessage);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    async close() {
      await prisma.$disconnect();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * A client that never connects unless queried: for building the app only to read its OpenAPI document.
 */
export function unconnectedDatabase(): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: "postgresql://unused@127.0.0.1:1/unused" }) });
  return {
    prisma,
    kind: "postgres",
    run: () => Promise.reject(new Error("no database: this app instance only serves its OpenAPI document")),
    migrate: () => Promise.reject(new Error("no database: this app instance only serves its OpenAPI document")),
    listen: () => Promise.resolve(() => Promise.resolve()),
    close: () => prisma.$disconnect(),
  };
}
