import type { FastifyBaseLogger } from "fastify";
import { getAddress, isAddress, type Hex } from "viem";
import type { PrismaClient, ReferralAllowList } from "../../generated/prisma/client.js";
import { isUniqueViolation } from "../../lib/errors.js";
import { nullifierHashToHex } from "@oro/clients";
import { IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import { humanBehindWallet } from "./humans.js";

export type AllowListEntry = ReferralAllowList;

/** The operator named something that is not a wallet address or a human (nullifier hash). */
export class AllowListInputError extends Error {
  override name = "AllowListInputError";
}

/** A wallet address in the form the allow-list keeps it (lower case). */
export function parseWallet(text: string): string {
  const value = text.trim();
  if (!isAddress(value, { strict: false })) throw new AllowListInputError(`"${text}" is not a wallet address (0x and 40 hex digits)`);
  return getAddress(value).toLowerCase();
}

const HUMAN_HEX = /^0x[0-9a-fA-F]{64}$/;
const HUMAN_DECIMAL = /^\d{1,78}$/;

/** A human: a World ID nullifier hash as 0x and 64 hex digits, or in decimal; kept as referrals keep it. */
export function parseHuman(text: string): Hex {
  const value = text.trim();
  if (HUMAN_HEX.test(value) || (HUMAN_DECIMAL.test(value) && BigInt(value) < 2n ** 256n)) return nullifierHashToHex(BigInt(value));
  throw new AllowListInputError(`"${text}" is not a nullifier hash (0x and 64 hex digits, or decimal)`);
}

/** What `remove` takes: a wallet address (0x and 40 hex digits) or a human. */
export function parseWalletOrHuman(text: string): { address: string } | { nullifierHash: Hex } {
  if (isAddress(text.trim(), { strict: false })) return { address: parseWallet(text) };
  try {
    return { nullifierHash: parseHuman(text) };
  } catch {
    throw new AllowListInputError(`"${text}" is neither a wallet address (0x and 40 hex digits) nor a nullifier hash (0x and 64 hex digits, or decimal)`);
  }
}

/** What `addWallet` recorded: the entry of the human behind the wallet, or an address-only entry and why. */
export type WalletAddition =
  | { kind: "human"; wallet: string; entry: AllowListEntry }
  | { kind: "address-only"; wallet: string; entry: AllowListEntry; why: "no-mints" | "indexer-unavailable" };

export type AllowList = ReturnType<typeof createAllowList>;

/**
 * The referral allow-list (spec section 4: a user who has claimed before may still accept an invite when
 * allow-listed), per human: an entry names a human (World ID nullifier hash) and exempts that human on every
 * wallet, and nobody else. When the operator names a wallet nobody has minted to yet (or the indexer cannot
 * tell), the entry names only the wallet; the first time the API learns the human behind that wallet
 * (`exempts`), the entry becomes that human's. Kept by the operator with `pnpm --filter @oro/api allow-list`.
 */
export function createAllowList(prisma: PrismaClient, log?: Pick<FastifyBaseLogger, "info">) {
  async function upsertHuman(human: Hex, note: string | undefined, wallet: string | undefined): Promise<AllowListEntry> {
    return prisma.referralAllowList.upsert({
      where: { nullifierHash: human },
      create: { nullifierHash: human, address: wallet ?? null, note: note ?? null },
      // A note or wallet left out keeps the one recorded.
      update: { ...(wallet ? { address: wallet } : {}), ...(note !== undefined ? { note } : {}) },
    });
  }

  async function addAddressOnly(wallet: string, note: string | undefined): Promise<AllowListEntry> {
    const existing = await prisma.referralAllowList.findFirst({ where: { address: wallet, nullifierHash: null } });
    if (!existing) return prisma.referralAllowList.create({ data: { address: wallet, note: note ?? null } });
    if (note === undefined) return existing;
    return prisma.referralAllowList.update({ where: { id: existing.id }, data: { note } });
  }

  /**
   * Makes an address-only entry `human`'s. When that human has an entry already, the address-only one adds
   * nothing and goes. Either way `human` is covered afterwards, unless another process bound it first.
   */
  async function bind(entry: AllowListEntry, human: Hex): Promise<void> {
    try {
      const { count } = await prisma.referralAllowList.updateMany({
        where: { id: entry.id, nullifierHash: null },
        data: { nullifierHash: human, boundAt: new Date() },
      });
      if (count === 1) log?.info({ wallet: entry.address, human }, "allow-list entry of a wallet bound to its human");
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await prisma.referralAllowList.deleteMany({ where: { id: entry.id, nullifierHash: null } });
      log?.info({ wallet: entry.address, human, note: entry.note }, "allow-list entry of a wallet merged into its human's entry");
    }
  }

  return {
    /**
     * Allow-lists the human behind `address`, the same answer every referral rule uses (the human the API
     * remembered for that wallet's user, else the wallet's first minter), not every human who ever minted to it;
     * an address-only entry when nobody has minted to it yet or the indexer does not answer.
     */
    async addWallet(address: string, note: string | undefined, indexer: IndexerClient): Promise<WalletAddition> {
      const wallet = parseWallet(address);
      const firstMint = () => indexer.firstClaim(getAddress(wallet));
      const user = await prisma.user.findUnique({ where: { address: wallet } });
      let human: Hex | null;
      try {
        if (user) human = await humanBehindWallet(prisma, user, firstMint);
        else {
          const mint = await firstMint();
          human = mint ? nullifierHashToHex(BigInt(mint.nullifierHash)) : null;
        }
      } catch (error) {
        if (!(error instanceof IndexerUnavailableError)) throw error;
        return { kind: "address-only", wallet, entry: await addAddressOnly(wallet, note), why: "indexer-unavailable" };
      }
      if (human === null) return { kind: "address-only", wallet, entry: await addAddressOnly(wallet, note), why: "no-mints" };
      const earlier = await prisma.referralAllowList.findFirst({ where: { address: wallet, nullifierHash: null } });
      if (earlier) await bind(earlier, human);
      return { kind: "human", wallet, entry: await upsertHuman(human, note, wallet) };
    },

    /** Allow-lists one human directly. */
    addHuman(nullifierHash: string, note?: string): Promise<AllowListEntry> {
      return upsertHuman(parseHuman(nullifierHash), note, undefined);
    },

    /** Removes the entries of a human, or the entries recorded with a wallet. Returns how many. */
    async remove(target: string): Promise<number> {
      return (await prisma.referralAllowList.deleteMany({ where: parseWalletOrHuman(target) })).count;
    },

    /**
     * Every entry, oldest first (then by id), read `pageSize` a statement, each page strictly after the last entry
     * of the one before: memory holds one page however long the list grows.
     */
    async *entries(pageSize = 1_000): AsyncGenerator<AllowListEntry> {
      let last: AllowListEntry | undefined;
      for (;;) {
        const page = await prisma.referralAllowList.findMany({
          where: last ? { OR: [{ createdAt: { gt: last.createdAt } }, { createdAt: last.createdAt, id: { gt: last.id } }] } : {},
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          take: pageSize,
        });
        yield* page;
        last = page.at(-1);
        if (page.length < pageSize) return;
      }
    },

    /**
     * Whether the allow-list exempts the referee on `address`, whose human is `human` (null: not known yet).
     * A known human is exempt by their own entry, on any wallet; an address-only entry of this wallet becomes
     * theirs now. While the human is unknown, only an address-only entry of this wallet lets it through.
     */
    async exempts(address: string, human: Hex | null): Promise<boolean> {
      const wallet = address.toLowerCase();
      if (human === null) return (await prisma.referralAllowList.count({ where: { address: wallet, nullifierHash: null } })) > 0;
      const entries = await prisma.referralAllowList.findMany({
        where: { OR: [{ nullifierHash: human }, { address: wallet, nullifierHash: null }] },
      });
      const unbound = entries.find((entry) => entry.nullifierHash === null);
      if (!unbound) return entries.length > 0;
      await bind(unbound, human);
      return (await prisma.referralAllowList.count({ where: { nullifierHash: human } })) > 0;
    },
  };
}
