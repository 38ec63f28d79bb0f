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

let cachedEpoch: { prisma: Db; epoch: bigint } | undefined;

async function nonceEpoch(prisma: Db): Promise<bigint> {
  if (cachedEpoch?.prisma === prisma) return cachedEpoch.epoch;
  const candidate = BigInt(`0x${randomBytes(8).toString("hex")}`).toString();
  await prisma.setting.upsert({ where: { key: EPOCH_KEY }, create: { key: EPOCH_KEY, value: candidate }, update: {} });
  const row = await prisma.setting.findUniqueOrThrow({ where: { key: EPOCH_KEY } });
  const epoch = BigInt(row.value);
  cachedEpoch = { prisma, epoch };
  return epoch;
}

export async function allocateVoucherNonce(prisma: Db): Promise<bigint> {
  const epoch = await nonceEpoch(prisma);
  const [row] = await prisma.$queryRaw<{ n: bigint }[]>`SELECT nextval('voucher_nonce_seq') AS n`;
  if (!row) throw new Error("voucher_nonce_seq returned nothing");
  return (epoch << 64n) + BigInt(row.n);
}

export interface SignedVoucher {
  account: Address;
  amount: bigint;
  nonce: bigint;
  signature: Hex;
  chainId: number;
  contractAddress: Address;
}

export async function createSignedVoucher(prisma: Db, chain: ChainService, account: Address, amount: bigint): Promise<SignedVoucher> {
  const nonce = await allocateVoucherNonce(prisma);
  const signature = await chain.signVoucher({ account, amount, nonce });
  return { account, amount, nonce, signature, chainId: chain.chainId, contractAddress: chain.claimContract };
}
