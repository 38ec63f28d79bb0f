import type { FastifyBaseLogger } from "fastify";
import { hotStatement, type Database } from "../../db/database.js";
import { Prisma } from "../../generated/prisma/client.js";
import { deleteInBatches } from "../../lib/delete-in-batches.js";
import { openInvalidationChannel, type Notice } from "../../lib/invalidation.js";

/** One cached indexer answer (JSON), when it was fetched and until when it is served without asking again. */
export interface CachedAnswer {
  body: unknown;
  fetchedAt: number;
  freshUntil: number;
}

/**
 * Where streak answers live, per address and kind ("current", "claims:<limit>", "first-claim", "world-id"). `clear` drops every kind
 * of one address.
 */
export interface StreakCacheStore {
  get(address: string, kind: string): Promise<CachedAnswer | undefined>;
  set(address: string, kind: string, answer: CachedAnswer): Promise<void>;
  clear(address: string): Promise<void>;
  /** Drops answers fetched before `fetchedBefore` (too old even to be served stale); in the table, `batch` a statement. */
  purge(fetchedBefore: number, batch?: number): Promise<number>;
  close(): Promise<void>;
}

/** Values per address and kind, the oldest address evicted first beyond `maxAddresses`. */
class AddressMap<V> {
  private readonly byAddress = new Map<string, Map<string, V>>();

  constructor(private readonly maxAddresses: number) {}

  get(address: string, kind: string): V | undefined {
    return this.byAddress.get(address)?.get(kind);
  }

  set(address: string, kind: string, value: V): void {
    let kinds = this.byAddress.get(address);
    if (!kinds) {
      if (this.byAddress.size >= this.maxAddresses) {
        const oldest = this.byAddress.keys().next();
        if (!oldest.done) this.byAddress.delete(oldest.value);
      }
      kinds = new Map();
      this.byAddress.set(address, kinds);
    }
    kinds.set(kind, value);
  }

  clear(address?: string): void {
    if (address === undefined) this.byAddress.clear();
    else this.byAddress.delete(address);
  }

  /** Deletes the values `drop` picks; returns how many. */
  deleteWhere(drop: (value: V) => boolean): number {
    let dropped = 0;
    for (const [address, kinds] of this.byAddress) {
      for (const [kind, value] of kinds) {
        if (drop(value)) {
          kinds.delete(kind);
          dropped++;
        }
      }
      if (kinds.size === 0) this.byAddress.delete(address);
    }
    return dropped;
  }
}

/** In-process (one API process, or PGlite, which only one process can open). */
export function createMemoryStore(maxAddresses = 100_000): StreakCacheStore {
  const answers = new AddressMap<CachedAnswer>(maxAddresses);
  return {
    get: (address, kind) => Promise.resolve(answers.get(address, kind)),
    set(address, kind, answer) {
      answers.set(address, kind, answer);
      return Promise.resolve();
    },
    clear(address) {
      answers.clear(address);
      return Promise.resolve();
    },
    purge: (fetchedBefore) => Promise.resolve(answers.deleteWhere((answer) => answer.fetchedAt < fetchedBefore)),
    close: () => Promise.resolve(),
  };
}

/** The `streak_cache` table, whose writes can tell the other processes in the same statement. */
export interface DatabaseStreakStore extends StreakCacheStore {
  /** set, and the NOTIFY of `notice` once it is written: one statement, one round trip, for every uncached read. */
  setAndNotify(address: string, kind: string, answer: CachedAnswer, notice: Notice): Promise<void>;
}

const CACHED_ANSWER = hotStatement<[address: string, kind: string], { body: unknown; fetchedAt: number; freshUntil: number }>(
  "streak_cache_get",
  `SELECT "body", round(extract(epoch FROM "fetched_at") * 1000)::float8 AS "fetchedAt",
          round(extract(epoch FROM "fresh_until") * 1000)::float8 AS "freshUntil"
     FROM "streak_cache" WHERE "address" = $1 AND "kind" = $2`,
);

/** address, kind, the body as JSON text, fetched at and fresh until as ISO times. */
type Upsert = [address: string, kind: string, body: string, fetchedAt: string, freshUntil: string];
const UPSERT = `INSERT INTO "streak_cache" ("address", "kind", "body", "fetched_at", "fresh_until")
    VALUES ($1, $2, $3::jsonb, $4::timestamp(3), $5::timestamp(3))
    ON CONFLICT ("address", "kind") DO UPDATE
      SET "body" = EXCLUDED."body", "fetched_at" = EXCLUDED."fetched_at", "fresh_until" = EXCLUDED."fresh_until"`;
const SET = hotStatement<Upsert, never>("streak_cache_set", UPSERT);
// The NOTIFY goes out only once the row is written, in the same statement (one round trip per uncached read).
const SET_AND_NOTIFY = hotStatement<[...Upsert, channel: string, payload: string], unknown>(
  "streak_cache_set_notify",
  `WITH "written" AS (${UPSERT} RETURNING 1) SELECT pg_notify($6, $7) FROM "written"`,
);

const upsertValues = (address: string, kind: string, answer: CachedAnswer): Upsert => [
  address,
  kind,
  JSON.stringify(answer.body),
  new Date(answer.fetchedAt).toISOString(),
  new Date(answer.freshUntil).toISOString(),
];

/** The `streak_cache` table: shared by every API process on the same database. Reads and writes are hot statements. */
export function createDatabaseStore(database: Database): DatabaseStreakStore {
  const { prisma } = database;
  return {
    async get(address, kind) {
      const [row] = await database.run(CACHED_ANSWER, [address, kind]);
      return row ? { body: row.body, fetchedAt: row.fetchedAt, freshUntil: row.freshUntil } : undefined;
    },
    async set(address, kind, answer) {
      await database.run(SET, upsertValues(address, kind, answer));
    },
    async setAndNotify(address, kind, answer, { channel, payload }) {
      await database.run(SET_AND_NOTIFY, [...upsertValues(address, kind, answer), channel, payload]);
    },
    async clear(address) {
      await prisma.streakCacheEntry.deleteMany({ where: { address } });
    },
    purge(fetchedBefore, batch) {
      return deleteInBatches(prisma, "streak_cache", Prisma.sql`"fetched_at" < ${new Date(fetchedBefore)}`, batch);
    },
    close: () => Promise.resolve(),
  };
}

export const STREAK_CACHE_CHANNEL = "oro_streak_cache";

/**
 * The shared table with an in-process copy in front, for speed: each process keeps what it read for
 * `localTtlMs`. Whoever writes or clears an address tells the others (an invalidation channel), which drop
 * their copy at once, so a cleared streak is never served from another process's memory; `localTtlMs`
 * bounds the damage of anything else.
 */
export async function createLayeredStore(options: {
  shared: DatabaseStreakStore;
  database: Database;
  localTtlMs: number;
  log: FastifyBaseLogger;
}): Promise<StreakCacheStore> {
  const { shared, localTtlMs } = options;
  const local = new AddressMap<{ answer: CachedAnswer; localUntil: number }>(100_000);
  const channel = await openInvalidationChannel({
    database: options.database,
    channel: STREAK_CACHE_CHANNEL,
    onInvalidate: (address) => local.clear(address),
    onReset: () => local.clear(),
    log: options.log,
  });
  const keepLocally = channel.connected && localTtlMs > 0;
  const keep = (address: string, kind: string, answer: CachedAnswer) => {
    if (keepLocally) local.set(address, kind, { answer, localUntil: Date.now() + localTtlMs });
  };

  return {
    async get(address, kind) {
      if (keepLocally) {
        const copy = local.get(address, kind);
        if (copy && copy.localUntil > Date.now()) return copy.answer;
      }
      const answer = await shared.get(address, kind);
      if (answer) keep(address, kind, answer);
      return answer;
    },
    async set(address, kind, answer) {
      await shared.setAndNotify(address, kind, answer, channel.notice(address));
      keep(address, kind, answer);
    },
    async clear(address) {
      local.clear(address);
      await shared.clear(address);
      await channel.publish(address);
    },
    purge: (fetchedBefore, batch) => shared.purge(fetchedBefore, batch),
    close: () => channel.close(),
  };
}
