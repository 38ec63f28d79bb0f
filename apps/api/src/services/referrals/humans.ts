import { getAddress, type Hex } from "viem";
import type { User } from "../../generated/prisma/client.js";
import { INDEXER_MAX_LIMIT, normaliseNullifierHash, type IndexedClaim, type IndexerClient } from "../indexer.js";

/** The humans behind one wallet, as far as the chain tells: who minted to it, and who minted first. */
export interface WalletHumans {
  humans: Set<Hex>;
  /** The first mint the wallet received (within the indexer's newest page), or undefined. */
  firstMint: IndexedClaim | undefined;
}

/** Reads the humans behind `user`'s wallet from the indexer (the remembered one counts too). */
export async function humansOfWallet(indexer: IndexerClient, user: User): Promise<WalletHumans> {
  const humans = new Set<Hex>();
  if (user.nullifierHash) humans.add(normaliseNullifierHash(BigInt(user.nullifierHash)));
  const claims = await indexer.claims(getAddress(user.address), INDEXER_MAX_LIMIT);
  for (const claim of claims) humans.add(normaliseNullifierHash(claim.nullifierHash));
  return { humans, firstMint: claims[claims.length - 1] };
}

/** When `human` first minted, to any wallet (unix seconds), or null. The claim's own count can spare a request. */
export async function firstMintOfHuman(indexer: IndexerClient, human: Hex, knownMint: IndexedClaim | undefined): Promise<number | null> {
  if (knownMint && knownMint.numOfMints === 1 && normaliseNullifierHash(knownMint.nullifierHash) === human) return knownMint.timestamp;
  const record = await indexer.human(human);
  return record.hasMinted ? record.firstMintedAt : null;
}
