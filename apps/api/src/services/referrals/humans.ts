import { getAddress, type Hex } from "viem";
import type { PrismaClient, User } from "../../generated/prisma/client.js";
import { nullifierHashToHex } from "@oro/clients";
import { type IndexedClaim, type IndexerClient } from "../indexer/index.js";

/** The humans behind one wallet, as far as the chain tells: who minted to it, and who minted first. */
export interface WalletHumans {
  humans: Set<Hex>;
  /** The first mint the wallet ever received, or undefined. */
  firstMint: IndexedClaim | undefined;
}

/** A listed mint, as the indexer or the streak cache gives it (the hash 0x hex). */
export interface ListedMint {
  nullifierHash: string;
}

/**
 * Reads the humans behind `user`'s wallet from the indexer (the remembered one counts too): everyone who ever
 * minted to it, and its first mint. Two requests at once, each bounded whatever the wallet's history.
 */
export async function humansOfWallet(indexer: IndexerClient, user: User): Promise<WalletHumans> {
  const humans = new Set<Hex>();
  if (user.nullifierHash) humans.add(nullifierHashToHex(BigInt(user.nullifierHash)));
  const address = getAddress(user.address);
  const [minters, firstMint] = await Promise.all([indexer.humansOf(address), indexer.firstClaim(address)]);
  for (const human of minters) humans.add(nullifierHashToHex(human));
  return { humans, firstMint };
}

/** The human the API remembers for `user`, or null. */
export function rememberedHuman(user: User): Hex | null {
  return user.nullifierHash ? nullifierHashToHex(BigInt(user.nullifierHash)) : null;
}

/**
 * Remembers `human` as the one behind `user`'s wallet unless one is remembered already (by another path,
 * maybe in another process a moment ago): the first answer stays. Returns the human remembered now, and
 * updates `user` so the rest of the request sees it.
 */
export async function rememberHuman(prisma: PrismaClient, user: User, human: Hex): Promise<Hex> {
  const remembered = rememberedHuman(user);
  if (remembered) return remembered;
  const decimal = BigInt(human).toString();
  const { count } = await prisma.user.updateMany({ where: { id: user.id, nullifierHash: null }, data: { nullifierHash: decimal } });
  if (count === 1) {
    user.nullifierHash = decimal;
    return human;
  }
  const stored = await prisma.user.findUnique({ where: { id: user.id }, select: { nullifierHash: true } });
  user.nullifierHash = stored?.nullifierHash ?? decimal;
  return nullifierHashToHex(BigInt(user.nullifierHash));
}

/**
 * The one answer, for every rule of the API, to "which human is behind this wallet": the human the API
 * remembered for the user, else the human of the wallet's first mint (its owner in the usual case: the first
 * human to verify and claim to it; anyone may mint to any wallet later). The first time it is learnt it is
 * remembered on the user (`user.nullifierHash`), so every later path, and a later mint by another human,
 * leaves it as it is. `firstMint` reads the wallet's first mint (the indexer, or the streak cache); it is
 * asked only while nothing is remembered. Null while nobody has minted to the wallet.
 */
export async function humanBehindWallet(prisma: PrismaClient, user: User, firstMint: () => Promise<ListedMint | undefined>): Promise<Hex | null> {
  const remembered = rememberedHuman(user);
  if (remembered) return remembered;
  const mint = await firstMint();
  if (!mint) return null;
  return rememberHuman(prisma, user, nullifierHashToHex(BigInt(mint.nullifierHash)));
}

/** The first mint `user`'s wallet ever received, asked of the indexer (oldest first, no cache). */
export function firstMintFromIndexer(indexer: IndexerClient, user: User): Promise<IndexedClaim | undefined> {
  return indexer.firstClaim(getAddress(user.address));
}

/** When `human` first minted, to any wallet (unix seconds), or null. The claim's own count can spare a request. */
export async function firstMintOfHuman(indexer: IndexerClient, human: Hex, knownMint: IndexedClaim | undefined): Promise<number | null> {
  if (knownMint && knownMint.numOfMints === 1 && nullifierHashToHex(knownMint.nullifierHash) === human) return knownMint.timestamp;
  const record = await indexer.human(human);
  return record.hasMinted ? record.firstMintedAt : null;
}
