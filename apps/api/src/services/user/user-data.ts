import type { IncomingHttpHeaders } from "node:http";
import type { PrismaClient, User } from "../../generated/prisma/client.js";

/** The swap reward's states: the web app shows the offer unless Ineligible or Claimed. */
export const SWAP_REWARD_STATUSES = ["Ineligible", "Eligible", "Claimed"] as const;
export type SwapRewardStatus = (typeof SWAP_REWARD_STATUSES)[number];

export interface UserDataOptions {
  prisma: PrismaClient;
  /** The header the trusted proxy sets to the client's ISO country code; undefined: not configured. */
  countryHeader: string | undefined;
  /** Total partner swap volume from which the reward is Eligible (SPEC: 5 USD). */
  minSwapVolumeUsd: number;
}

export type UserDataService = ReturnType<typeof createUserDataService>;

/** The small per-user facts of the app: country check, swap reward status, the post-claim email. */
export function createUserDataService(options: UserDataOptions) {
  const { prisma } = options;

  /** Only the proxy's header counts (the client cannot be trusted with its country); absent means no. */
  function isInUs(headers: IncomingHttpHeaders): boolean {
    if (!options.countryHeader) return false;
    const value = headers[options.countryHeader];
    const country = Array.isArray(value) ? value[0] : value;
    return country?.trim().toUpperCase() === "US";
  }

  async function swapReward(address: string): Promise<{ rewardStatus: SwapRewardStatus; totalSwapVolumeUsd: number; minSwapVolumeUsd: number }> {
    const lower = address.toLowerCase();
    const [total, claim] = await Promise.all([
      prisma.partnerSwap.aggregate({ where: { address: lower }, _sum: { volumeUsd: true } }),
      prisma.swapRewardClaim.findUnique({ where: { address: lower } }),
    ]);
    const totalSwapVolumeUsd = Number(total._sum.volumeUsd?.toFixed(6) ?? "0");
    const rewardStatus: SwapRewardStatus = claim
      ? "Claimed"
      : totalSwapVolumeUsd >= options.minSwapVolumeUsd
        ? "Eligible"
        : "Ineligible";
    return { rewardStatus, totalSwapVolumeUsd, minSwapVolumeUsd: options.minSwapVolumeUsd };
  }

  /** Stores (or replaces) the user's one email; it arrives validated and normalised. */
  async function submitEmail(user: User, email: string): Promise<Date> {
    const row = await prisma.userEmail.upsert({ where: { userId: user.id }, create: { userId: user.id, email }, update: { email } });
    return row.updatedAt;
  }

  async function emailStatus(user: User): Promise<{ submitted: boolean; submittedAt: string | null }> {
    const row = await prisma.userEmail.findUnique({ where: { userId: user.id } });
    return { submitted: row !== null, submittedAt: row?.updatedAt.toISOString() ?? null };
  }

  /** The offer as anyone may read it (the API's setting). */
  const swapRewardTerms = { minSwapVolumeUsd: options.minSwapVolumeUsd };

  return { isInUs, swapReward, swapRewardTerms, submitEmail, emailStatus };
}
