import type { FastifyBaseLogger } from "fastify";
import { rewindChainCursor, type IndexerApi } from "@oro/clients";
import type { Database } from "../db/database.js";

/** How often a follower that keeps failing says so at warn level. */
const WARN_EVERY_MS = 60_000;

/** An event the indexer lists in chain order, with its place in that order. */
export interface FollowedEvent {
  cursor: IndexerApi.ChainCursor;
}

export interface ChainFollowerOptions<Event extends FollowedEvent> {
  database: Database;
  /** The follower's row in chain_follower ("mints", "payouts"): one cursor shared by every replica. */
  name: string;
  /** A page of at most `limit` events after `after` (null: from the first event), in chain order. */
  fetch(after: IndexerApi.ChainCursor | null, limit: number): Promise<Event[]>;
  /**
   * Acts on a page of events. It must be idempotent: a page is applied again after a rewind, or by another replica
   * when this one's lease ran out. Throwing leaves the cursor where it was, so the page is applied again next pass.
   */
  apply(events: Event[]): Promise<void>;
  pageSize: number;
  /** How long a replica holds the follower for a pass (another takes it over once it has run out). */
  leaseMs: number;
  /**
   * Seconds of chain time read again at the start of each pass, for the events a reorganisation replaced under the
   * follower (they may sort before where it had got to); 0 reads nothing twice.
   */
  rewindSeconds: number;
  /** Where a follower that has never run starts: after this cursor, or from the first event when it gives null. */
  startAt: () => IndexerApi.ChainCursor | null;
  log: FastifyBaseLogger;
  now?: () => number;
}

export interface FollowerPass {
  /** False when another replica holds the follower (this pass did nothing). */
  held: boolean;
  /** Events applied, those read again after the rewind included. */
  events: number;
  /** Whether the pass reached the newest event the indexer lists. */
  caughtUp: boolean;
}

interface FollowerRow {
  cursor: string | null;
}

export type ChainFollower = ReturnType<typeof createChainFollower>;

/**
 * Follows one of the indexer's lists of events in chain order (mints, payouts) from where the last pass stopped, page
 * by page, so that what they change in the API's records is known within a pass instead of being asked of the indexer
 * on each read. Replicas share one cursor (chain_follower): a pass leases the follower, and a replica that finds it
 * leased does nothing. `followed_at` records when a pass last reached the newest event, which readers check before
 * relying on what the follower has applied.
 */
export function createChainFollower<Event extends FollowedEvent>(options: ChainFollowerOptions<Event>) {
  const { database, name, log } = options;
  const { prisma } = database;
  const now = options.now ?? Date.now;
  let lastWarnedAt = -Infinity;

  /** The follower's cursor when this replica now holds it, else undefined. */
  async function lease(): Promise<FollowerRow | undefined> {
    const at = now();
    await prisma.$executeRaw`INSERT INTO "chain_follower" ("name") VALUES (${name}) ON CONFLICT ("name") DO NOTHING`;
    const [row] = await prisma.$queryRaw<FollowerRow[]>`
      UPDATE "chain_follower" SET "locked_until" = to_timestamp(${(at + options.leaseMs) / 1000}::float8)
       WHERE "name" = ${name} AND ("locked_until" IS NULL OR "locked_until" <= to_timestamp(${at / 1000}::float8))
      RETURNING "cursor"`;
    return row;
  }

  /**
   * Moves the cursor on, and the lease with it. Only from where this pass found it: a replica that took over after this
   * one's lease ran out may be further on, and is not put back.
   */
  async function advance(from: string | null, to: string, caughtUp: boolean): Promise<boolean> {
    const at = now();
    const moved = await prisma.$executeRaw`
      UPDATE "chain_follower"
         SET "cursor" = ${to},
             "locked_until" = to_timestamp(${(at + options.leaseMs) / 1000}::float8),
             "followed_at" = CASE WHEN ${caughtUp} THEN to_timestamp(${at / 1000}::float8) ELSE "followed_at" END
       WHERE "name" = ${name} AND "cursor" IS NOT DISTINCT FROM ${from}`;
    return moved === 1;
  }

  async function release(caughtUp: boolean): Promise<void> {
    const at = now();
    await prisma.$executeRaw`
      UPDATE "chain_follower"
         SET "locked_until" = NULL,
             "followed_at" = CASE WHEN ${caughtUp} THEN to_timestamp(${at / 1000}::float8) ELSE "followed_at" END
       WHERE "name" = ${name}`;
  }

  /**
   * One pass: pages of events from the cursor (rewound by `rewindSeconds`) until the newest, `budgetMs` has passed or
   * the process is stopping. An error (the indexer down, an apply that failed) ends the pass where it was, logged.
   */
  async function pass(budgetMs: number, stopping?: AbortSignal): Promise<FollowerPass> {
    const held = await lease();
    if (!held) return { held: false, events: 0, caughtUp: false };
    const started = now();
    let stored = held.cursor;
    let after = stored === null ? options.startAt() : options.rewindSeconds > 0 ? rewindChainCursor(stored, options.rewindSeconds) : stored;
    let events = 0;
    let caughtUp = false;
    try {
      for (;;) {
        const page = await options.fetch(after, options.pageSize);
        if (page.length > 0) await options.apply(page);
        events += page.length;
        caughtUp = page.length < options.pageSize;
        const last = page.at(-1);
        if (last) after = last.cursor;
        // Never behind where it was: the rewound pages only read again what was applied before.
        if (last && (stored === null || last.cursor > stored)) {
          if (!(await advance(stored, last.cursor, caughtUp))) {
            log.warn({ follower: name }, "another replica took the follower over (this pass outlived its lease)");
            return { held: true, events, caughtUp: false };
          }
          stored = last.cursor;
        }
        if (caughtUp || stopping?.aborted || now() - started >= budgetMs) break;
      }
    } catch (error) {
      // The next pass starts again from the cursor; until then readers see an older followed_at. An outage of the
      // indexer fails every pass: one warning a minute says so, the rest go to debug.
      const at = now();
      const loud = at - lastWarnedAt >= WARN_EVERY_MS;
      if (loud) lastWarnedAt = at;
      log[loud ? "warn" : "debug"]({ err: error, follower: name }, "chain follower paused: the next pass tries again");
      caughtUp = false;
    } finally {
      await release(caughtUp);
    }
    return { held: true, events, caughtUp };
  }

  return { pass };
}
