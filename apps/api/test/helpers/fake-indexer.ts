import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toHex, type Address, type Hex } from "viem";
import { streakAfterMint, streakAt, type StreakAtMint } from "@oro/indexer/streak";
import {
  IndexerUnavailableError,
  type FollowedMint,
  type FollowedPayout,
  type IndexedClaim,
  type IndexedHuman,
  type IndexedIndexingHealth,
  type IndexedStreak,
  type IndexedTokenStats,
  type IndexedWorldIdStatus,
  type IndexerClient,
} from "../../src/services/indexer/client.js";

/**
 * An in-memory stand-in for the indexer's HTTP API, for route tests that must not depend on a running
 * indexer. Its streaks are the indexer's own rule (`@oro/indexer/streak`), with the wait in `wait`. The full
 * referral story test runs the real indexer against a real chain instead.
 */
export class FakeIndexer implements IndexerClient {
  private readonly mints: IndexedClaim[] = [];
  /** Each human's streak as of their latest mint, as the indexer keeps it. */
  private readonly streaks = new Map<Hex, StreakAtMint>();
  /** Paid voucher nonces. */
  private readonly paid = new Set<bigint>();
  /** Mints and payouts in chain order, as the indexer lists them to be followed. */
  private readonly chainOrder = { mints: [] as FollowedMint[], payouts: [] as FollowedPayout[] };
  private events = 0;

  /** A cursor as the indexer's: the block time (10 digits) first, so that a rewind by seconds goes back as on chain. */
  private cursorAt(timestamp: number): string {
    this.events++;
    return `${String(timestamp).padStart(10, "0")}${String(this.events).padStart(65, "0")}`;
  }
  down = false;
  calls = 0;
  /** What GET /health/indexing answers. */
  indexing: IndexedIndexingHealth = { state: "current", lagBlocks: 0, lagSeconds: 0 };
  /** The contract's waitBetweenMints, seconds. */
  wait = 86_400;

  /** A human mints to `receiver` at `timestamp` (unix seconds; default now). */
  mint(receiver: Address, nullifierHash: bigint | Hex, timestamp = Math.floor(Date.now() / 1000)): IndexedClaim {
    const human = toHex(BigInt(nullifierHash), { size: 32 });
    const previous = this.mints.find((claim) => claim.nullifierHash === human);
    const streak = streakAfterMint(this.streaks.get(human), timestamp, this.wait);
    this.streaks.set(human, streak);
    const claim: IndexedClaim = {
      transactionHash: toHex(this.mints.length + 1, { size: 32 }),
      blockNumber: this.mints.length + 1,
      logIndex: 0,
      timestamp,
      receiver: receiver.toLowerCase() as Address,
      nullifierHash: human,
      amount: 500_000_000_000_000_000n,
      numOfMints: (previous?.numOfMints ?? 0) + 1,
      streak: streak.currentStreak,
    };
    this.mints.unshift(claim);
    this.chainOrder.mints.push({ cursor: this.cursorAt(timestamp), receiver: claim.receiver });
    return claim;
  }

  /** The claim contract pays a voucher (to whom and how much do not matter to what the API asks). */
  payout(_account: Address, nonce: bigint, _amount: bigint, timestamp = Math.floor(Date.now() / 1000)): void {
    this.paid.add(nonce);
    this.chainOrder.payouts.push({ cursor: this.cursorAt(timestamp), nonce });
  }

  mintsAfter(after: string | null, limit: number): Promise<FollowedMint[]> {
    this.check();
    return Promise.resolve(FakeIndexer.inChainOrder(this.chainOrder.mints, after, limit));
  }

  payoutsAfter(after: string | null, limit: number): Promise<FollowedPayout[]> {
    this.check();
    return Promise.resolve(FakeIndexer.inChainOrder(this.chainOrder.payouts, after, limit));
  }

  private static inChainOrder<Event extends { cursor: string }>(events: Event[], after: string | null, limit: number): Event[] {
    return events
      .filter((event) => after === null || event.cursor > after)
      .sort((a, b) => (a.cursor < b.cursor ? -1 : 1))
      .slice(0, limit);
  }

  indexingHealth(): Promise<IndexedIndexingHealth> {
    this.check();
    return Promise.resolve(this.indexing);
  }

  private check() {
    this.calls++;
    if (this.down) throw new IndexerUnavailableError("fake indexer is down");
  }

  claims(address: Address, limit: number): Promise<IndexedClaim[]> {
    this.check();
    return Promise.resolve(this.mints.filter((claim) => claim.receiver === address.toLowerCase()).slice(0, limit));
  }

  firstClaim(address: Address): Promise<IndexedClaim | undefined> {
    this.check();
    const received = this.mints.filter((claim) => claim.receiver === address.toLowerCase());
    return Promise.resolve(received[received.length - 1]);
  }

  humansOf(address: Address): Promise<Hex[]> {
    this.check();
    const minted = this.mints.filter((claim) => claim.receiver === address.toLowerCase()).map((claim) => claim.nullifierHash);
    return Promise.resolve([...new Set(minted)].sort());
  }

  streak(address: Address): Promise<IndexedStreak> {
    this.check();
    const lower = address.toLowerCase() as Address;
    // As the indexer: the wallet shows its owner's streak, the human of its first mint (mints are newest first).
    const first = this.mints.filter((claim) => claim.receiver === lower).at(-1);
    const latest = first && this.streaks.get(first.nullifierHash);
    if (!first || !latest) {
      return Promise.resolve({
        address: lower,
        nullifierHash: null,
        currentStreak: 0,
        longestStreak: 0,
        numOfMints: 0,
        lastMintedAt: null,
        nextMintAt: null,
        streakExpiresAt: null,
      });
    }
    return Promise.resolve({
      address: lower,
      nullifierHash: first.nullifierHash,
      numOfMints: this.mints.filter((claim) => claim.nullifierHash === first.nullifierHash).length,
      ...streakAt(latest, Date.now() / 1000, this.wait),
    });
  }

  waitBetweenMints(): Promise<number> {
    this.check();
    return Promise.resolve(this.wait);
  }

  /** Holders are the distinct receivers of mints, the supply their sum (no transfers here). */
  tokenStats(): Promise<IndexedTokenStats> {
    this.check();
    const holders = new Set(this.mints.map((claim) => claim.receiver)).size;
    const totalSupply = this.mints.reduce((sum, claim) => sum + claim.amount, 0n);
    return Promise.resolve({ holders, totalSupply, lastEventAt: this.mints[0]?.timestamp ?? null });
  }

  human(nullifierHash: Hex): Promise<IndexedHuman> {
    this.check();
    const human = toHex(BigInt(nullifierHash), { size: 32 });
    const mints = this.mints.filter((claim) => claim.nullifierHash === human);
    const first = mints[mints.length - 1];
    return Promise.resolve({ hasMinted: first !== undefined, numOfMints: mints.length, firstMintedAt: first?.timestamp ?? null });
  }

  claimedNonces(nonces: readonly bigint[]): Promise<Set<bigint>> {
    this.check();
    return Promise.resolve(new Set(nonces.filter((nonce) => this.paid.has(nonce))));
  }

  private readonly sessions: { human: Hex; idkitSessionId: string; movedFrom3: boolean; receiver: Address }[] = [];

  /**
   * A human enrols in World ID 4.0 with `receiver` (their enrolment mints to it, unless `mints` is false: a 3.0 human
   * who never moved enrols anew after 3.0 closed). `movedFrom3`: a 3.0 human who moved, keeping their key.
   */
  enrol(
    nullifierHash: bigint | Hex,
    idkitSessionId: string,
    { receiver, movedFrom3 = false, mints = !movedFrom3 }: { receiver: Address; movedFrom3?: boolean; mints?: boolean },
  ): void {
    const human = toHex(BigInt(nullifierHash), { size: 32 });
    this.sessions.unshift({ human, idkitSessionId, movedFrom3, receiver: receiver.toLowerCase() as Address });
    if (mints) this.mint(receiver, human);
  }

  /** As the indexer: the session of the wallet's human (the human of its first mint), else the newest enrolled with the wallet. */
  worldIdStatus(address: Address): Promise<IndexedWorldIdStatus> {
    this.check();
    const lower = address.toLowerCase();
    const first = this.mints.filter((claim) => claim.receiver === lower).at(-1);
    const session =
      (first && this.sessions.find((enrolled) => enrolled.human === first.nullifierHash)) ?? this.sessions.find((enrolled) => enrolled.receiver === lower);
    return Promise.resolve({ session: session ? { idkitSessionId: session.idkitSessionId } : null, movedToWorldId4: session?.movedFrom3 === true });
  }
}

/**
 * Serves `indexer`'s mints over HTTP as the indexer's `GET /streaks/:address/claims?limit=N&order=newest|oldest` does, for a
 * process of its own (an operator command) given INDEXER_URL. Anything else answers 404.
 */
export async function serveFakeIndexer(indexer: FakeIndexer): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://indexer");
    const match = /^\/streaks\/(0x[0-9a-f]{40})\/claims$/.exec(url.pathname);
    if (!match?.[1]) {
      response.writeHead(404).end();
      return;
    }
    const address = match[1] as Address;
    const order = url.searchParams.get("order") ?? "newest";
    const limit = Number(url.searchParams.get("limit") ?? "10");
    // Oldest first reads the whole newest-first list backwards, as the indexer's index does.
    const listed = order === "oldest" ? indexer.claims(address, Number.MAX_SAFE_INTEGER).then((all) => all.reverse().slice(0, limit)) : indexer.claims(address, limit);
    listed.then(
      (claims) => {
        const body = JSON.stringify({ claims }, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
        response.writeHead(200, { "content-type": "application/json" }).end(body);
      },
      () => response.writeHead(503).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
