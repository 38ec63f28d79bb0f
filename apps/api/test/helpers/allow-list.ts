import type { PrismaClient } from "../../src/generated/prisma/client.js";
import { createAllowList } from "../../src/services/referrals/allow-list.js";
import type { IndexerClient } from "../../src/services/indexer/client.js";

/** What the operator's `allow-list add <wallet> [note]` does, in this process, with the test's indexer. */
export async function allowListWallet(prisma: PrismaClient, indexer: IndexerClient, wallet: string, note?: string): Promise<void> {
  await createAllowList(prisma).addWallet(wallet, note, indexer);
}

/** The allow-list as the operator's `allow-list list` shows it: human (null while address-only) and wallet. */
export async function allowListEntries(prisma: PrismaClient): Promise<{ human: string | null; wallet: string | null; note: string | null }[]> {
  const entries = [];
  for await (const entry of createAllowList(prisma).entries()) entries.push({ human: entry.nullifierHash, wallet: entry.address, note: entry.note });
  return entries;
}

/** What the operator's `allow-list add --human <nullifier hash> [note]` does. */
export async function allowListHuman(prisma: PrismaClient, human: bigint, note?: string): Promise<void> {
  await createAllowList(prisma).addHuman(human.toString(), note);
}
