import { toHex, type Address, type Hex } from "viem";
import {
  IndexerUnavailableError,
  type IndexedClaim,
  type IndexedPayout,
  type IndexerClient,
} from "../../src/services/indexer.js";

/**
 * An in-memory stand-in for the indexer's HTTP API, for route tests that must not depend on a running
 * indexer. The full referral story test runs the real indexer against a real chain instead.
 */
export class FakeIndexer implements IndexerClient {
  private readonly mints: IndexedClaim[] = [];
  private readonly paid: IndexedPayout[] = [];
  down = false;
  calls = 0;

  mint(receiver: Address, nullifierHash: bigint | Hex): IndexedClaim {
    const claim: IndexedClaim = {
      transactionHash: toHex(this.mints.length + 1, { size: 32 }),
      blockNumber: this.mints.length + 1,
      timestamp: Math.floor(Date.now() / 1000),
      receiver: receiver.toLowerCase() as Address,
      nullifierHash: toHex(BigInt(nullifierHash), { size: 32 }),
      amount: 500_000_000_000_000_000n,
      numOfMints: 1,
    };
    this.mints.unshift(claim);
    return claim;
  }

  payout(account: Address, nonce: bigint, amount: bigint): void {
    this.paid.unshift({
      nonce,
      account: account.toLowerCase() as Address,
      amount,
      transactionHash: toHex(nonce, { size: 32 }),
      timestamp: Math.floor(Date.now() / 1000),
    });
  }

  private check() {
    this.calls++;
    if (this.down) throw new IndexerUnavailableError("fake indexer is down");
  }

  claims(address: Address, limit: number): Promise<IndexedClaim[]> {
    this.check();
    return Promise.resolve(this.mints.filter((claim) => claim.receiver === address.toLowerCase()).slice(0, limit));
  }

  payouts(account: Address, limit: number): Promise<IndexedPayout[]> {
    this.check();
    return Promise.resolve(this.paid.filter((payout) => payout.account === account.toLowerCase()).slice(0, limit));
  }

  isNonceClaimed(nonce: bigint): Promise<boolean> {
    this.check();
    return Promise.resolve(this.paid.some((payout) => payout.nonce === nonce));
  }
}
