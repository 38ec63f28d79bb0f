import { z } from "zod";
import { nullifierHashToHex, type IndexerApi } from "@oro/clients";
import type { Address, Hex } from "viem";
import type { UnreadableEvent } from "../../lib/chain-follower.js";
import { keepAliveAgents, readAnswer, type HttpAnswer } from "../../lib/http-client.js";

/**
 * What the API needs from the indexer (apps/indexer's HTTP API). Everything on-chain the referral
 * programme decides on goes through this interface: eligibility (has the address minted), the referee's
 * human, and which vouchers were paid.
 */
export interface IndexerClient {
  /** Mints received by `address`, newest first (`GET /streaks/:address/claims?limit=N`). */
  claims(address: Address, limit: number): Promise<IndexedClaim[]>;
  /** The first mint `address` ever received, or undefined (`GET /streaks/:address/claims?order=oldest&limit=1`). */
  firstClaim(address: Address): Promise<IndexedClaim | undefined>;
  /** Every human who ever minted to `address`, each once (`GET /streaks/:address/humans`). */
  humansOf(address: Address): Promise<Hex[]>;
  /** The streak the address shows (`GET /streaks/:address`). */
  streak(address: Address): Promise<IndexedStreak>;
  /** The contract's wait between mints in seconds, as indexed (`GET /stats`). */
  waitBetweenMints(): Promise<number>;
  /** Unique holders (balance above zero) and total supply, as indexed (`GET /stats`). */
  tokenStats(): Promise<IndexedTokenStats>;
  /** One human's mints, whichever wallets received them (`GET /humans/:nullifierHash`). */
  human(nullifierHash: Hex): Promise<IndexedHuman>;
  /**
   * Which of these voucher nonces were paid (`GET /referral-payouts/nonces?nonces=…`), in requests of at most
   * INDEXER_MAX_LIMIT nonces: one request for a page of vouchers, however many the account was paid before.
   */
  claimedNonces(nonces: readonly bigint[]): Promise<Set<bigint>>;
  /** The World ID 4.0 session of the wallet's human, if they enrolled (`GET /world-id/:address`). */
  worldIdStatus(address: Address): Promise<IndexedWorldIdStatus>;
  /** Up to `limit` mints after the cursor (null: from the first) in chain order (`GET /mints?after=…&limit=…`). */
  mintsAfter(after: IndexerApi.ChainCursor | null, limit: number): Promise<(FollowedMint | UnreadableEvent)[]>;
  /** Up to `limit` voucher payouts after the cursor in chain order (`GET /referral-payouts?after=…&limit=…`). */
  payoutsAfter(after: IndexerApi.ChainCursor | null, limit: number): Promise<(FollowedPayout | UnreadableEvent)[]>;
  /** Whether indexing keeps up with the chain (`GET /health/indexing`, which answers 503 unless current). */
  indexingHealth(): Promise<IndexedIndexingHealth>;
}

/** The indexer did not answer, or answered something unusable. Callers turn it into a 503. */
export class IndexerUnavailableError extends Error {
  override name = "IndexerUnavailableError";
}

/**
 * `schema`, checked against the indexer's answer `Answer` (its one description, in @oro/clients): the call does not
 * compile when the answer lacks a field the schema reads, or gives it another type.
 */
function readsAnswer<Answer>() {
  return <S extends z.ZodType>(schema: S, ..._check: Answer extends z.input<S> ? [] : [mismatch: never]): S => schema;
}

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/).transform((value) => value.toLowerCase() as Hex);
const decimal = z.string().regex(/^\d+$/).transform((value) => BigInt(value));

const claimSchema = readsAnswer<IndexerApi.Claim>()(z.object({
  transactionHash: hex,
  blockNumber: z.number().int(),
  logIndex: z.number().int(),
  timestamp: z.number(),
  receiver: hex.transform((value): Address => value),
  nullifierHash: hex,
  amount: decimal,
  numOfMints: z.number().int(),
  streak: z.number().int(),
}));

const seconds = z.number().int().nonnegative();

const streakSchema = readsAnswer<IndexerApi.StreakResponse>()(z.object({
  address: hex.transform((value): Address => value),
  nullifierHash: hex.nullable(),
  currentStreak: z.number().int().nonnegative(),
  longestStreak: z.number().int().nonnegative(),
  numOfMints: z.number().int().nonnegative(),
  lastMintedAt: seconds.nullable(),
  nextMintAt: seconds.nullable(),
  streakExpiresAt: seconds.nullable(),
}));

const statsSchema = readsAnswer<IndexerApi.StatsResponse>()(z.object({ waitBetweenMints: seconds }));

const tokenStatsSchema = readsAnswer<IndexerApi.StatsResponse>()(z.object({
  holders: z.number().int().nonnegative(),
  totalSupply: decimal,
  lastEventAt: seconds.nullable(),
}));

const humanSchema = readsAnswer<IndexerApi.HumanResponse>()(z.object({
  hasMinted: z.boolean(),
  numOfMints: z.number().int().nonnegative(),
  firstMintedAt: seconds.nullable(),
}));

const worldIdStatusSchema = readsAnswer<IndexerApi.WorldIdStatusResponse>()(z.object({
  session: z.object({ idkitSessionId: z.string().regex(/^session_[0-9a-f]{128}$/) }).nullable(),
  movedToWorldId4: z.boolean(),
}));

const cursor = z.string().regex(/^\d{1,100}$/);
const UINT256_MAX = 2n ** 256n - 1n;

const followedMintSchema = readsAnswer<IndexerApi.Claim>()(z.object({ cursor, receiver: z.string().regex(/^0x[0-9a-fA-F]{40}$/).transform((value) => value.toLowerCase() as Address) }));
const followedPayoutSchema = readsAnswer<IndexerApi.ReferralPayout>()(z.object({ cursor, nonce: decimal.refine((nonce) => nonce <= UINT256_MAX, "a nonce is a uint256") }));

/**
 * The items of a list in chain order, each read on its own: one the client cannot read becomes an UnreadableEvent
 * (with its cursor when that much is readable), which the follower skips, instead of failing the page and with it
 * every later pass.
 */
function readEach<T>(items: unknown[], schema: z.ZodType<T>): (T | UnreadableEvent)[] {
  return items.map((item) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) return parsed.data;
    const place = cursor.safeParse(typeof item === "object" && item !== null ? (item as { cursor?: unknown }).cursor : undefined);
    const reason = parsed.error.issues.map((issue) => `${issue.path.join(".") || "item"}: ${issue.message}`).join("; ");
    return { cursor: place.success ? place.data : null, unreadable: reason.slice(0, 500) };
  });
}

const indexingHealthSchema = readsAnswer<IndexerApi.IndexingHealthResponse>()(z.object({
  state: z.enum(["current", "behind", "backfilling"]),
  lagBlocks: z.number().int().nonnegative().nullable(),
  lagSeconds: z.number().nonnegative().nullable(),
}));

export type IndexedWorldIdStatus = z.output<typeof worldIdStatusSchema>;
export type IndexedIndexingHealth = z.output<typeof indexingHealthSchema>;
export type FollowedMint = z.output<typeof followedMintSchema>;
export type FollowedPayout = z.output<typeof followedPayoutSchema>;
export type IndexedClaim = z.output<typeof claimSchema>;
export type IndexedStreak = z.output<typeof streakSchema>;
export type IndexedHuman = z.output<typeof humanSchema>;
export type IndexedTokenStats = z.output<typeof tokenStatsSchema>;

const claimsResponse = readsAnswer<IndexerApi.ClaimsResponse>()(z.object({ claims: z.array(claimSchema) }));
const humansResponse = readsAnswer<IndexerApi.WalletHumansResponse>()(z.object({ humans: z.array(hex) }));
const noncesResponse = readsAnswer<IndexerApi.ReferralNoncesResponse>()(z.object({ claimed: z.array(decimal) }));
// The lists followed in chain order: the envelope must be right, each item is read on its own (readEach).
const mintsResponse = readsAnswer<IndexerApi.MintsResponse>()(z.object({ mints: z.array(z.unknown()) }));
const payoutsResponse = readsAnswer<IndexerApi.ReferralPayoutsResponse>()(z.object({ payouts: z.array(z.unknown()) }));

/** The indexer's page size limit for listings, and the most nonces one lookup may name. */
export const INDEXER_MAX_LIMIT = 100;

/** The most mints or payouts one page of the indexer's lists in chain order holds. */
export const INDEXER_FOLLOW_LIMIT = 1_000;

/**
 * GET over node:http(s) with one keep-alive agent per client: every request reuses an open connection to the indexer.
 * Node's fetch cost about 4× the CPU of this per call (its streams, Headers and Response objects, an AbortSignal with a
 * timer): ~160 against ~40 µs per call measured here, client and local server together, on every uncached read.
 */
function keepAliveGetter(timeoutMs: number): (url: string) => Promise<HttpAnswer> {
  const connectionFor = keepAliveAgents();
  const attempt = (url: string, deadline: number, retried: boolean): Promise<HttpAnswer> =>
    new Promise<HttpAnswer>((resolve, reject) => {
      const { client, agent } = connectionFor(url);
      let answered = false;
      const request = client.get(url, { agent }, (response) => {
        answered = true;
        readAnswer(
          response,
          (answer) => {
            clearTimeout(timer);
            resolve(answer);
          },
          reject,
        );
      });
      // The whole exchange, answer included, within the timeout: a slow body is cut off as well.
      const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), Math.max(0, deadline - Date.now()));
      request.on("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // The indexer closed an idle kept-alive connection just as this request went out on it: the request never
        // reached it (a GET, so safe to send again), and the indexer is not down. Once more on a new connection.
        const closedUnderUs = request.reusedSocket && !answered && (error.code === "ECONNRESET" || error.code === "EPIPE");
        if (closedUnderUs && !retried && Date.now() < deadline) attempt(url, deadline, true).then(resolve, reject);
        else reject(error);
      });
    });
  return (url: string) => attempt(url, Date.now() + timeoutMs, false);
}

export function createHttpIndexerClient(options: { baseUrl: string; timeoutMs: number }): IndexerClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const getUrl = keepAliveGetter(options.timeoutMs);

  /** The answer on `path`, read by `schema`; `alsoOn503`: a 503 carries the answer too (GET /health/indexing). */
  async function get<T>(path: string, schema: z.ZodType<T>, alsoOn503 = false): Promise<T> {
    let answer: HttpAnswer;
    try {
      answer = await getUrl(`${base}${path}`);
    } catch (error) {
      throw new IndexerUnavailableError(`indexer request ${path} failed: ${(error as Error).message}`, { cause: error });
    }
    if ((answer.status < 200 || answer.status >= 300) && !(alsoOn503 && answer.status === 503)) {
      throw new IndexerUnavailableError(`indexer request ${path} answered ${answer.status}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new IndexerUnavailableError(`indexer request ${path} answered an unexpected body: ${parsed.error.message}`);
    }
    return parsed.data;
  }

  return {
    async claims(address, limit) {
      const body = await get(`/streaks/${address.toLowerCase()}/claims?limit=${limit}`, claimsResponse);
      return body.claims;
    },
    async firstClaim(address) {
      const body = await get(`/streaks/${address.toLowerCase()}/claims?order=oldest&limit=1`, claimsResponse);
      return body.claims[0];
    },
    async humansOf(address) {
      return (await get(`/streaks/${address.toLowerCase()}/humans`, humansResponse)).humans;
    },
    streak(address) {
      return get(`/streaks/${address.toLowerCase()}`, streakSchema);
    },
    async waitBetweenMints() {
      return (await get("/stats", statsSchema)).waitBetweenMints;
    },
    async tokenStats() {
      const { holders, totalSupply, lastEventAt } = await get("/stats", tokenStatsSchema);
      return { holders, totalSupply, lastEventAt };
    },
    human(nullifierHash) {
      return get(`/humans/${nullifierHashToHex(nullifierHash)}`, humanSchema);
    },
    async claimedNonces(nonces) {
      const claimed = new Set<bigint>();
      for (let start = 0; start < nonces.length; start += INDEXER_MAX_LIMIT) {
        const batch = nonces.slice(start, start + INDEXER_MAX_LIMIT).join(",");
        for (const nonce of (await get(`/referral-payouts/nonces?nonces=${batch}`, noncesResponse)).claimed) claimed.add(nonce);
      }
      return claimed;
    },
    async mintsAfter(after, limit) {
      return readEach((await get(`/mints?limit=${limit}${after === null ? "" : `&after=${after}`}`, mintsResponse)).mints, followedMintSchema);
    },
    async payoutsAfter(after, limit) {
      return readEach((await get(`/referral-payouts?limit=${limit}${after === null ? "" : `&after=${after}`}`, payoutsResponse)).payouts, followedPayoutSchema);
    },
    indexingHealth() {
      return get("/health/indexing", indexingHealthSchema, true);
    },
    async worldIdStatus(address) {
      const { session, movedToWorldId4 } = await get(`/world-id/${address.toLowerCase()}`, worldIdStatusSchema);
      return { session: session ? { idkitSessionId: session.idkitSessionId } : null, movedToWorldId4 };
    },
  };
}
