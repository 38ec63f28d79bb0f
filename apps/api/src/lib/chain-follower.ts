import type { FastifyBaseLogger } from "fastify";
import { rewindChainCursor, type IndexerApi } from "@oro/clients";
import type { Database } from "../db/database.js";

/** How often a follower that keeps failing says so at warn level. */
const WARN_EVERY_MS = 60_000;

/**
 * Passes in a row an event may fail to apply (for a reason other than the indexer being unable to tell) before the
 * follower skips it, so that one event it cannot apply never stops it. The sweep and the reads that ask the indexer
 * still decide what the skipped event would have.
 */
export const APPLY_ATTEMPTS = 3;

/** An event the indexer lists in chain order, with its place in that order. */
export interface FollowedEvent {
  cursor: IndexerApi.ChainCursor;
}

/** An item of the indexer's list that is not an event of the expected shape: skipped (past its cursor, when it has one). */
export interface UnreadableEvent {
  cursor: IndexerApi.ChainCursor | null;
  unreadable: string;
}

export const isUnreadable = (item: FollowedEvent | UnreadableEvent): item is UnreadableEvent => "unreadable" in item;

export interface ChainFollowerOptions<Event extends FollowedEvent> {
  database: Database;
  /** The follower's row in chain_follower ("mints", "payouts"): one cursor shared by every replica. */
  name: string;
  /**
   * A page of at most `limit` items after `after` (null: from the first event), in chain order; an item the client
   * could not read comes as an UnreadableEvent.
   */
  fetch(after: IndexerApi.ChainCursor | null, limit: number): Promise<(Event | UnreadableEvent)[]>;
  /**
   * Acts on a page of events. It must be idempotent: a page is applied again after a rewind, or by another replica
   * when this one's lease ran out. Throwing leaves the cursor where it was, so the page is applied again next pass;
   * an event that fails APPLY_ATTEMPTS passes in a row is skipped, unless `mayRetry` says its error is one to wait out.
   */
  apply(events: Event[]): Promise<void>;
  /** Errors that never count towards skipping an event (the indexer cannot tell now: the next pass asks again). */
  mayRetry: (error: unknown) => boolean;
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
  /** Items skipped: unreadable ones, and events that failed APPLY_ATTEMPTS passes. */
  skipped: number;
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
  /** Failed passes in a row by the cursor of the event that failed (one entry a failing event, dropped once it goes). */
  const failures = new Map<string, number>();

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
   * Applies a page. When it fails, event by event, to find the one that does: an event that fails APPLY_ATTEMPTS
   * passes in a row is skipped with an error line; a failure before that (or one `mayRetry` accepts) ends the pass.
   * Returns how many events were skipped.
   */
  async function applyPage(events: Event[]): Promise<number> {
    try {
      await options.apply(events);
      return 0;
    } catch (error) {
      if (options.mayRetry(error)) throw error;
    }
    let skipped = 0;
    for (const event of events) {
      try {
        await options.apply([event]);
        failures.delete(event.cursor);
      } catch (error) {
        if (options.mayRetry(error)) throw error;
        const failed = (failures.get(event.cursor) ?? 0) + 1;
        if (failed < APPLY_ATTEMPTS) {
          if (failures.size >= 100) failures.clear();
          failures.set(event.cursor, failed);
          throw error;
        }
        failures.delete(event.cursor);
        skipped += 1;
        log.error({ err: error, follower: name, cursor: event.cursor, event }, `chain follower skipped an event that failed ${APPLY_ATTEMPTS} passes in a row`);
      }
    }
    return skipped;
  }

  /**
   * One pass: pages of events from the cursor (rewound by `rewindSeconds`) until the newest, `budgetMs` has passed or
   * the process is stopping. An error (the indexer down, an apply that failed) ends the pass where it was, logged. An
   * item the client could not read is skipped with a warning: nothing the indexer lists stops the follower.
   */
  async function pass(budgetMs: number, stopping?: AbortSignal): Promise<FollowerPass> {
    const held = await lease();
    if (!held) return { held: false, events: 0, skipped: 0, caughtUp: false };
    const started = now();
    let stored = held.cursor;
    let after = stored === null ? options.startAt() : options.rewindSeconds > 0 ? rewindChainCursor(stored, options.rewindSeconds) : stored;
    let events = 0;
    let skipped = 0;
    let caughtUp = false;
    try {
      for (;;) {
        const page = await options.fetch(after, options.pageSize);
        const readable: Event[] = [];
        for (const item of page) {
          if (!isUnreadable(item)) readable.push(item);
          else {
            skipped += 1;
            log.warn({ follower: name, cursor: item.cursor, reason: item.unreadable }, "chain follower skipped an item of the indexer's list it cannot read");
          }
        }
        if (readable.length > 0) skipped += await applyPage(readable);
        events += readable.length;
        caughtUp = page.length < options.pageSize;
        // The furthest place in chain order the page names, whatever its items held (an unreadable item's too).
        const last = page.reduce<string | null>((furthest, item) => (item.cursor !== null && (furthest === null || item.cursor > furthest) ? item.cursor : furthest), null);
        if (last) after = last;
        else if (page.length > 0) {
          // Nothing on the page says where it stands (every item unreadable, none with a cursor): asking again would
          // get the same page.
          log.error({ follower: name, after }, "chain follower cannot pass a page of the indexer's list with no readable cursor");
          caughtUp = false;
          break;
        }
        // Never behind where it was: the rewound pages only read again what was applied before.
        if (last && (stored === null || last > stored)) {
          if (!(await advance(stored, last, caughtUp))) {
            log.warn({ follower: name }, "another replica took the follower over (this pass outlived its lease)");
            return { held: true, events, skipped, caughtUp: false };
          }
          stored = last;
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
    return { held: true, events, skipped, caughtUp };
  }

  return { pass };
}
