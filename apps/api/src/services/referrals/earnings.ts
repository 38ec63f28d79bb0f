import type { FastifyBaseLogger } from "fastify";
import { getAddress, type Address, type Hex } from "viem";
import type { PaymentType, PrismaClient, Referral, ReferralReward, User } from "../../generated/prisma/client.js";
import type { ChainService } from "../chain.js";
import { indexerWithin, startDeadline, type Deadline } from "../deadline.js";
import { INDEXER_MAX_LIMIT, IndexerUnavailableError, type IndexerClient } from "../indexer.js";
import { TtlCache } from "../ttl-cache.js";
import type { ReferralActivation } from "./activation.js";

export interface ClaimableSignature {
  contractAddress: Address;
  message: { account: Address; amount: string; nonce: string };
  signature: Hex;
}

export interface RefereeReward {
  paymentType: PaymentType;
  paymentAmountWei: string;
  hasClaimed: boolean;
  updatedAt: string;
  claimableSignature?: ClaimableSignature;
}

export interface ReferredUserEntry extends RefereeReward {
  userId: string;
  username: string | null;
}

export interface Earnings {
  totalOroEarnedWei: string;
  usersReferred: ReferredUserEntry[];
  rewardForBeingReferee: RefereeReward | null;
  referredByUsername: string | null;
}

export interface EarningsOptions {
  prisma: PrismaClient;
  chain: ChainService;
  indexer: IndexerClient;
  activation: ReferralActivation;
  cacheTtlMs: number;
  /** One deadline for all of a request's calls to the indexer (and the chain in its place). */
  requestDeadlineMs: number;
  log: FastifyBaseLogger;
}

type RewardWithReferral = ReferralReward & { referral: Referral & { referee: User; referrer: User } };

/** How many pending referrals an earnings request brings up to date itself (the worker does the rest). */
const INLINE_ACTIVATIONS = 10;

export type ReferralEarnings = ReturnType<typeof createReferralEarnings>;

/** What a user earned: their rewards with vouchers, brought up to date within one deadline per request. */
export function createReferralEarnings(options: EarningsOptions) {
  const { prisma, chain, log } = options;
  const cache = new TtlCache<Earnings>(options.cacheTtlMs);

  function forget(...addresses: string[]) {
    for (const address of addresses) cache.delete(address.toLowerCase());
  }

  /** Records vouchers the chain has paid (the indexer's payouts; the contract's bitmap when it is down). */
  async function refreshClaimed(address: Address, rewards: RewardWithReferral[], indexer: IndexerClient, deadline: Deadline): Promise<void> {
    const open = rewards.filter((reward) => reward.claimedAt === null);
    if (open.length === 0) return;
    let paid: Set<bigint>;
    try {
      const payouts = await indexer.payouts(address, INDEXER_MAX_LIMIT);
      paid = new Set(payouts.map((payout) => payout.nonce));
      if (payouts.length === INDEXER_MAX_LIMIT) {
        for (const reward of open) {
          const nonce = BigInt(reward.voucherNonce.toFixed());
          if (!paid.has(nonce) && (await indexer.isNonceClaimed(nonce))) paid.add(nonce);
        }
      }
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      log.warn({ err: error }, "payouts read from the chain: indexer unavailable");
      paid = new Set();
      for (const reward of open) {
        const nonce = BigInt(reward.voucherNonce.toFixed());
        // The chain shares the request's deadline: what it cannot say in time stays "not claimed".
        const used = await deadline.run(() => chain.isNonceUsed(nonce)).catch(() => false);
        if (used) paid.add(nonce);
      }
    }
    const now = new Date();
    for (const reward of open) {
      if (!paid.has(BigInt(reward.voucherNonce.toFixed()))) continue;
      const updated = await prisma.referralReward.update({
        where: { id: reward.id },
        data: { claimedAt: now, ...(reward.paymentType === "auto" ? { status: "paid", lockedUntil: null } : {}) },
      });
      Object.assign(reward, updated);
    }
  }

  function present(reward: RewardWithReferral): RefereeReward {
    const base = {
      paymentType: reward.paymentType,
      paymentAmountWei: reward.amountWei.toFixed(),
      hasClaimed: reward.claimedAt !== null || reward.status === "paid",
      updatedAt: reward.updatedAt.toISOString(),
    };
    if (reward.paymentType !== "claimable") return base;
    const beneficiary = reward.side === "referrer" ? reward.referral.referrer : reward.referral.referee;
    return {
      ...base,
      claimableSignature: {
        contractAddress: getAddress(reward.contractAddress),
        message: { account: getAddress(beneficiary.address), amount: reward.amountWei.toFixed(), nonce: reward.voucherNonce.toFixed() },
        signature: reward.voucherSignature as Hex,
      },
    };
  }

  async function earnings(user: User, { bypassCache }: { bypassCache: boolean }): Promise<Earnings> {
    const key = user.address.toLowerCase();
    if (!bypassCache) {
      const cached = cache.get(key);
      if (cached) return cached;
    }
    const deadline = startDeadline(options.requestDeadlineMs);
    const indexer = indexerWithin(options.indexer, deadline);
    const pending = await prisma.referral.findMany({
      where: { status: "pending", OR: [{ refereeId: user.id }, { referrerId: user.id }] },
      orderBy: [{ lastCheckedAt: { sort: "asc", nulls: "first" } }],
      take: INLINE_ACTIVATIONS,
      select: { id: true },
    });
    for (const { id } of pending) {
      if (deadline.remainingMs() <= 0) break;
      try {
        await options.activation.activate(id, indexer);
      } catch (error) {
        // The user still gets what is known; the worker tries this referral again.
        log.error({ err: error, referralId: id }, "referral activation failed");
      }
    }

    const rewards: RewardWithReferral[] = await prisma.referralReward.findMany({
      where: { beneficiaryId: user.id },
      include: { referral: { include: { referee: true, referrer: true } } },
      orderBy: { createdAt: "desc" },
    });
    await refreshClaimed(getAddress(user.address), rewards, indexer, deadline);

    let total = 0n;
    const usersReferred: ReferredUserEntry[] = [];
    let rewardForBeingReferee: RefereeReward | null = null;
    for (const reward of rewards) {
      total += BigInt(reward.amountWei.toFixed());
      if (reward.side === "referrer") {
        const referee = reward.referral.referee;
        usersReferred.push({ userId: referee.id, username: referee.username, ...present(reward) });
      } else {
        rewardForBeingReferee = present(reward);
      }
    }
    const asReferee = await prisma.referral.findUnique({ where: { refereeId: user.id }, include: { referrer: true } });
    const result: Earnings = {
      totalOroEarnedWei: total.toString(),
      usersReferred,
      rewardForBeingReferee,
      referredByUsername: asReferee?.referrer.username ?? null,
    };
    cache.set(key, result);
    return result;
  }

  return { earnings, forget };
}
