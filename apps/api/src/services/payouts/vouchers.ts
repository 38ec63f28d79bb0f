import { randomBytes } from "node:crypto";
import type { Address, Hex } from "viem";
import type { Prisma, PrismaClient } from "../../generated/prisma/client.js";
import type { ChainService } from "../chain/index.js";

/**
 * Voucher nonces. The claim contract keeps ONE bitmap for every account, so a nonce must be unique across
 * all vouchers ever signed for a contract. Each nonce is `epoch * 2^64 + n`, where n comes from a database
 * sequence (consecutive nonces share a bitmap word, which keeps claims cheap) and the epoch is a random
 * 64-bit number drawn once per database: two databases pointed at one contract (staging and production,
 * or test runs against one local chain) never collide.
 */
const EPOCH_KEY = "voucher_nonce_epoch";

type Db = PrismaClient | Prisma.TransactionClient;

/** Allocates voucher nonces in this database's epoch. */
export interface VoucherNonces {
  readonly epoch: bigint;
  /** The next nonce, from the sequence, on `db` (the transaction that records the voucher). */
  allocate(db: Db): Promise<bigint>;
}

/**
 * This database's epoch, read once per process (it never changes) and before any transaction that signs a voucher:
 * the loader's answer is kept, and a failed read is tried again by the next caller. The first process that asks draws
 * it. Several replicas start at once on a new database: each offers a random epoch and keeps whichever was stored
 * first (an insert that does nothing on conflict, then a read), so none fails on the key another has just written.
 */
export function voucherNonceLoader(prisma: PrismaClient): () => Promise<VoucherNonces> {
  let loading: Promise<VoucherNonces> | undefined;
  return () => {
    loading ??= readOrDrawEpoch(prisma).then(
      (epoch) => ({
        epoch,
        async allocate(db: Db) {
          const [next] = await db.$queryRaw<{ n: bigint }[]>`SELECT nextval('voucher_nonce_seq') AS n`;
          if (!next) throw new Error("voucher_nonce_seq returned nothing");
          return (epoch << 64n) + BigInt(next.n);
        },
      }),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}

async function readOrDrawEpoch(prisma: PrismaClient): Promise<bigint> {
  const candidate = BigInt(`0x${randomBytes(8).toString("hex")}`).toString();
  await prisma.$executeRaw`INSERT INTO "setting" ("key", "value") VALUES (${EPOCH_KEY}, ${candidate}) ON CONFLICT ("key") DO NOTHING`;
  const [row] = await prisma.$queryRaw<{ value: string }[]>`SELECT "value" FROM "setting" WHERE "key" = ${EPOCH_KEY}`;
  if (!row) throw new Error(`the setting ${EPOCH_KEY} is missing right after it was written`);
  return BigInt(row.value);
}

export interface SignedVoucher {
  account: Address;
  amount: bigint;
  nonce: bigint;
  signature: Hex;
  chainId: number;
  contractAddress: Address;
}

export async function createSignedVoucher(db: Db, nonces: VoucherNonces, chain: ChainService, account: Address, amount: bigint): Promise<SignedVoucher> {
  const nonce = await nonces.allocate(db);
  const signature = await chain.signVoucher({ account, amount, nonce });
  return { account, amount, nonce, signature, chainId: chain.chainId, contractAddress: chain.claimContract };
}
