import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Unlisten } from "../db/database.js";

/**
 * Tells every other API process on the same PostgreSQL database to drop a key from its in-process cache
 * (NOTIFY / LISTEN). A process ignores its own messages. When the LISTEN connection was lost, messages may
 * have been missed, so `onReset` asks the cache to drop everything. `connected` is false when LISTEN could
 * not be set up: a cache must then not keep copies that others could make wrong.
 */
export interface InvalidationChannel {
  readonly connected: boolean;
  /** Tells the others to drop these keys: one statement, one NOTIFY per key (a page of payouts reaches many users). */
  publish(...keys: string[]): Promise<void>;
  /** The channel and payload that publish sends for one key: for a writer that sends the NOTIFY in its own statement. */
  notice(key: string): Notice;
  close(): Promise<void>;
}

export interface Notice {
  channel: string;
  payload: string;
}

export async function openInvalidationChannel(options: {
  database: Database;
  channel: string;
  onInvalidate: (key: string) => void;
  onReset: () => void;
  log: FastifyBaseLogger;
}): Promise<InvalidationChannel> {
  const { database, channel } = options;
  const self = randomUUID();
  let unlisten: Unlisten | undefined;
  try {
    unlisten = await database.listen(
      channel,
      (payload) => {
        const separator = payload.indexOf(":");
        if (separator > 0 && payload.slice(0, separator) !== self) options.onInvalidate(payload.slice(separator + 1));
      },
      options.onReset,
    );
  } catch (error) {
    options.log.warn({ err: error, channel }, "LISTEN failed: in-process copies are disabled for this cache");
  }
  const notice = (key: string): Notice => ({ channel, payload: `${self}:${key}` });
  return {
    connected: unlisten !== undefined,
    async publish(...keys) {
      if (keys.length === 0) return;
      const payloads = keys.map((key) => notice(key).payload);
      await database.prisma.$executeRaw`SELECT pg_notify(${channel}, "payload") FROM unnest(${payloads}::text[]) AS "payload"`;
    },
    notice,
    async close() {
      await unlisten?.();
    },
  };
}
