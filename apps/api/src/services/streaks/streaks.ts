import type { FastifyBaseLogger } from "fastify";
import type { Address } from "viem";
import { ApiError } from "../../lib/errors.js";
import { frozenAnswer } from "../../lib/frozen-answer.js";
import { IndexerUnavailableError, type IndexedClaim, type IndexedStreak, type IndexedWorldIdStatus, type IndexerClient } from "../indexer/index.js";
import type { CachedAnswer, StreakCacheStore } from "./streak-cache.js";

/** A claim as the API hands it on: the indexer's fields, the amount in wei as a decimal string. */
export interface ClaimView {
  transactionHash: string;
  blockNumber: number;
  logIndex: number;
  timestamp: number;
  receiver: string;
  nullifierHash: string;
  amount: string;
  numOfMints: number;
  streak: number;
}

/** Whether the answer is the indexer's latest, or the last one cached while the indexer is down. */
export interface Freshness {
  stale: boolean;
  cachedAt: string;
}

export type StreakView = IndexedStreak & Freshness;
export type ClaimsView = { claims: ClaimView[] } & Freshness;
export type FirstClaimView = { claim: ClaimView | null } & Freshness;

/** An indexed claim as it is cached and served (the amount as a decimal string). */
const claimView = (claim: IndexedClaim): ClaimView => ({ ...claim, amount: claim.amount.toString() });

export interface StreakServiceOptions {
  indexer: IndexerClient;
  store: StreakCacheStore;
  ttlMs: number;
  maxAgeMs: number;
  log: FastifyBaseLogger;
}

export type StreakService = ReturnType<typeof createStreakService>;

/**
 * The indexer's streak answers through a cache. A fresh answer is served from the cache; a stale or
 * missing one is fetched (one request per address and kind at a time in this process, however many callers
 * wait); when the indexer does not answer within its timeout, the last cached answer is served with
 * `stale: true`, and without one the caller gets 503 STREAK_UNAVAILABLE. A broken cache store never
 * breaks the route: it is logged and the indexer is asked directly.
 */
export function createStreakService(options: StreakServiceOptions) {
  const { indexer, store, log } = options;
  const inFlight = new Map<string, Promise<CachedAnswer>>();

  async function cached(address: string, kind: string): Promise<CachedAnswer | undefined> {
    try {
      return await store.get(address, kind);
    } catch (error) {
      log.warn({ err: error }, "streak cache read failed");
      return undefined;
    }
  }

  function refresh(address: string, kind: string, fetch: () => Promise<unknown>): Promise<CachedAnswer> {
    const key = `${address}|${kind}`;
    const running = inFlight.get(key);
    if (running) return running;
    const next = (async () => {
      const body = await fetch();
      const now = Date.now();
      const answer = { body, fetchedAt: now, freshUntil: now + options.ttlMs };
      await store.set(address, kind, answer).catch((error: unknown) => log.warn({ err: error }, "streak cache write failed"));
      return answer;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, next);
    return next;
  }

  const streakUnavailable = () =>
    new ApiError(503, "STREAK_UNAVAILABLE", "the streak service (indexer) does not answer and nothing is cached for this address: try again shortly");

  async function read(address: Address, kind: string, bypassCache: boolean, fetch: () => Promise<unknown>, unavailable = streakUnavailable) {
    const lower = address.toLowerCase();
    const hit = bypassCache ? undefined : await cached(lower, kind);
    if (hit && hit.freshUntil > Date.now()) return { answer: hit, stale: false };
    try {
      return { answer: await refresh(lower, kind, fetch), stale: false };
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      const last = hit ?? (await cached(lower, kind));
      if (last && last.fetchedAt > Date.now() - options.maxAgeMs) {
        log.warn({ err: error, address: lower, kind }, "indexer unavailable: serving the cached streak answer as stale");
        return { answer: last, stale: true };
      }
      throw unavailable();
    }
  }

  const freshness = (answer: CachedAnswer, stale: boolean): Freshness => ({ stale, cachedAt: new Date(answer.fetchedAt).toISOString() });

  // The answer built from a cached streak, kept with it while nothing it shows changes (not stale, not lapsed since):
  // frozen, so that the serializer writes it once too. The in-process copies serve the same object to every reader.
  const views = new WeakMap<CachedAnswer, { view: StreakView; lapsed: boolean }>();

  async function current(address: Address, { bypassCache }: { bypassCache: boolean }): Promise<StreakView> {
    const { answer, stale } = await read(address, "current", bypassCache, () => indexer.streak(address));
    const streak = answer.body as IndexedStreak;
    // A cached answer may outlive the streak: it lapses once streakExpiresAt has passed.
    const lapsed = streak.streakExpiresAt !== null && Date.now() / 1000 > streak.streakExpiresAt;
    const known = stale ? undefined : views.get(answer);
    if (known && known.lapsed === lapsed) return known.view;
    const view: StreakView = { ...streak, currentStreak: lapsed ? 0 : streak.currentStreak, ...freshness(answer, stale) };
    if (!stale) views.set(answer, { view: frozenAnswer(view), lapsed });
    return view;
  }

  async function claims(address: Address, limit: number, { bypassCache }: { bypassCache: boolean }): Promise<ClaimsView> {
    const { answer, stale } = await read(address, `claims:${limit}`, bypassCache, async () => {
      const list = await indexer.claims(address, limit);
      return { claims: list.map(claimView) };
    });
    return { ...(answer.body as { claims: ClaimView[] }), ...freshness(answer, stale) };
  }

  /** The first mint the address ever received (null before any), cached like the other answers. */
  async function firstClaim(address: Address, { bypassCache }: { bypassCache: boolean }): Promise<FirstClaimView> {
    const { answer, stale } = await read(address, "first-claim", bypassCache, async () => {
      const claim = await indexer.firstClaim(address);
      return { claim: claim ? claimView(claim) : null };
    });
    return { ...(answer.body as { claim: ClaimView | null }), ...freshness(answer, stale) };
  }

  /**
   * The World ID 4.0 session of the wallet's human, always asked of the indexer (an enrolment must show at once, not a
   * TTL later). The last answer is kept with the address's streak answers: while the indexer is down it stands in,
   * flagged stale, so a device can still claim with a session the chain already records.
   */
  async function worldIdStatus(address: Address): Promise<IndexedWorldIdStatus & { stale?: true }> {
    const { answer, stale } = await read(address, "world-id", true, () => indexer.worldIdStatus(address), () =>
      new ApiError(503, "WORLD_ID_STATUS_UNAVAILABLE", "cannot read the World ID session right now: try again shortly"),
    );
    const status = answer.body as IndexedWorldIdStatus;
    return stale ? { ...status, stale: true } : status;
  }

  async function clear(address: Address): Promise<void> {
    await store.clear(address.toLowerCase());
  }

  async function purge(): Promise<number> {
    return store.purge(Date.now() - options.maxAgeMs);
  }

  return { current, claims, firstClaim, worldIdStatus, clear, purge, close: () => store.close() };
}
