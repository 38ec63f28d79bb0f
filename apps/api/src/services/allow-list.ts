import { getAddress, isAddress } from "viem";
import type { PrismaClient, ReferralAllowList } from "../generated/prisma/client.js";

/**
 * The referral allow-list: addresses that may accept an invite although they have claimed before (spec
 * section 4). Kept by the operator with `pnpm --filter @oro/api allow-list`.
 */
export function createAllowList(prisma: PrismaClient) {
  function normalise(address: string): string {
    if (!isAddress(address, { strict: false })) throw new Error(`"${address}" is not an address`);
    return getAddress(address).toLowerCase();
  }

  return {
    async add(address: string, note?: string): Promise<ReferralAllowList> {
      const key = normalise(address);
      return prisma.referralAllowList.upsert({
        where: { address: key },
        create: { address: key, note: note ?? null },
        update: { note: note ?? null },
      });
    },
    async remove(address: string): Promise<boolean> {
      const { count } = await prisma.referralAllowList.deleteMany({ where: { address: normalise(address) } });
      return count === 1;
    },
    list(): Promise<ReferralAllowList[]> {
      return prisma.referralAllowList.findMany({ orderBy: { createdAt: "asc" } });
    },
  };
}
