import { Hono } from "hono";
import { publicClients } from "ponder:api";
import type { Block, PublicClient } from "viem";
import { env } from "../../env";
import { deploymentFor } from "../../lib/deployment";
import { judgeIndexing, type ChainPoint, type IndexingPosition } from "../../lib/indexing-health";
import type { IndexingHealthResponse } from "../types";

/** Blocks one eth_getLogs asks about (a provider's usual range cap), and how many ranges a check reads at most. */
const SEARCH_RANGE = 1_000;
const SEARCH_RANGES = 10;
/** One check at a time, its answer reused this long: load balancers and every API replica ask. */
const FRESH_MS = 2_000;

const deployment = deploymentFor(env.chain.id);
const contracts = [deployment.oro.address, deployment.referralClaim.address];
const pointOf = (block: Pick<Block, "number" | "timestamp">): ChainPoint => ({ number: Number(block.number), timestamp: Number(block.timestamp) });

/** This server's own answer on `path` (Ponder's /ready and /status). */
const own = (path: string) => fetch(`http://127.0.0.1:${env.port}${path}`, { signal: AbortSignal.timeout(2_000) });

async function indexedPoint(): Promise<ChainPoint | null> {
  const status = (await (await own("/status")).json()) as Record<string, { id?: number; block?: ChainPoint } | undefined>;
  const mine = Object.values(status).find((chain) => chain?.id === env.chain.id);
  return mine?.block ? { number: mine.block.number, timestamp: mine.block.timestamp } : null;
}

/**
 * The oldest block after `from - 1` not known to be indexed (see IndexingPosition.waiting): the first holding an event of
 * the indexed contracts, searched SEARCH_RANGES ranges far, else the first block past them; null when none up to `to`.
 */
async function firstWaiting(client: PublicClient, from: number, to: number): Promise<ChainPoint | null> {
  let start = from;
  for (let range = 0; range < SEARCH_RANGES && start <= to; range++, start += SEARCH_RANGE) {
    const logs = await client.getLogs({ address: contracts, fromBlock: BigInt(start), toBlock: BigInt(Math.min(to, start + SEARCH_RANGE - 1)) });
    const blocks = logs.map((log) => log.blockNumber).filter((block): block is bigint => block !== null);
    if (blocks.length > 0) {
      const oldest = blocks.reduce((a, b) => (a < b ? a : b));
      return pointOf(await client.getBlock({ blockNumber: oldest }));
    }
  }
  return start <= to ? pointOf(await client.getBlock({ blockNumber: BigInt(start) })) : null;
}

async function position(): Promise<IndexingPosition> {
  const client = (publicClients as Record<string, PublicClient | undefined>)[env.chain.name];
  const [ready, indexed, head] = await Promise.all([
    own("/ready").then((response) => response.ok, () => false),
    indexedPoint().catch(() => null),
    client ? client.getBlock({ blockTag: "latest" }).then(pointOf, () => null) : Promise.resolve(null),
  ]);
  if (!client || !head) return { ready, indexed, head: null, waiting: null };
  const from = (indexed?.number ?? Math.min(deployment.oro.startBlock, deployment.referralClaim.startBlock) - 1) + 1;
  const waiting = await firstWaiting(client, from, head.number).catch(() => undefined);
  // The chain answered its head but not the search: as good as not answering.
  return waiting === undefined ? { ready, indexed, head: null, waiting: null } : { ready, indexed, head, waiting };
}

let latest: { at: number; answer: IndexingHealthResponse } | undefined;
let checking: Promise<IndexingHealthResponse> | undefined;

/** GET /health/indexing: IndexingHealthResponse, 200 while current, else 503 (src/lib/indexing-health.ts says why). */
export const indexingHealth = new Hono().get("/", async (c) => {
  if (!latest || Date.now() - latest.at >= FRESH_MS) {
    checking ??= position()
      .then((found) => judgeIndexing(found, env.behindAfterSeconds))
      .finally(() => {
        checking = undefined;
      });
    latest = { at: Date.now(), answer: await checking };
  }
  return c.json(latest.answer, latest.answer.state === "current" ? 200 : 503);
});
