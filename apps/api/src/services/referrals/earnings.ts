import type { FastifyBaseLogger } from "fastify";
import { getAddress, type Address, type Hex } from "viem";
import { Prisma, type PaymentType, type PrismaClient, type ReferralReward, type User } from "../../generated/prisma/client.js";
import type { ChainService } from "../chain/index.js";
import { startDeadline, type Deadline } from "../../lib/deadline.js";
import { indexerWithin, INDEXER_MAX_LIMIT, IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import { ApiError } from "../../lib/errors.js";
import { TtlCache } from "../../lib/ttl-cache.js";
import type { ReferralActivation } from "./activation.js";
import {
  decodeInvitesCursor,
  encodeInvitesCursor,
  INVITE_RANK_SQL,
  inviteRank,
  INVITES_PAGE_SIZE,
  type InvitesCursor,
} from "./invites-page.js";

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
  /** Every reward of the user, both sides (an aggregate, not the sum of the page). */
  totalOroEarnedWei: string;
  /** One page of the people the user invited, in the spec's order (at most INVITES_PAGE_SIZE). */
  usersReferred: ReferredUserEntry[];
  rewardForBeingReferee: RefereeReward | null;
  referredByUsername: string | null;
  /** How many people the user invited whose invite paid (an aggregate). */
  usersReferredCount: number;
  /** Pass as `cursor` for the page after this one; null on the last page. */
  nextCursor: string | null;
}

export interface EarningsQuery {
  bypassCache: boolean;
  /** The nextCursor of the previous page; absent for the first page. */
  cursor?: string | undefined;
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

type RewardWithReferee = ReferralReward & { referral: { referee: Pick<User, "id" | "username"> } };

const withReferee = { referral: { select: { referee: { select: { id: true, username: true } } } } } as const;

/** How many pending referrals an earnings request brings up to date itself (the worker does the rest). */
const INLINE_ACTIVATIONS = 10;

export type ReferralEarnings = ReturnType<typeof createReferralEarnings>;

/**
 * What a user earned: the totals as aggregates, the referee's own reward, and one page of invites (keyset-paged
 * in the spec's order) with vouchers, brought up to date within one deadline per request. Nothing here reads
 * more rows than a page, whatever the user's history.
 */
export function createReferralEarnings(options: EarningsOptions) {
  const { prisma, chain, log } = options;
  // Only first pages are cached: they are what the share screen opens on.
  const cache = new TtlCache<Earnings>(options.cacheTtlMs);

  function forget(...addresses: string[]) {
    for (const address of addresses) cache.delete(address.toLowerCase());
  }

  /**
   * Records vouchers of these rewards that the chain has paid (the indexer's payouts; the contract's bitmap when
   * it is down). Returns whether any changed.
   */
  async function refreshClaimed(address: Address, rewards: RewardWithReferee[], indexer: IndexerClient, deadline: Deadline): Promise<boolean> {
    const open = rewards.filter((reward) => reward.claimedAt === null);
    if (open.length === 0) return false;
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
    let changed = false;
    for (const reward of open) {
      if (!paid.has(BigInt(reward.voucherNonce.toFixed()))) continue;
      const updated = await prisma.referralReward.update({
        where: { id: reward.id },
        data: { claimedAt: now, ...(reward.paymentType === "auto" ? { status: "paid", lockedUntil: null } : {}) },
      });
      Object.assign(reward, updated);
      changed = true;
    }
    return changed;
  }

  function present(reward: ReferralReward, beneficiary: User): RefereeReward {
    const base = {
      paymentType: reward.paymentType,
      paymentAmountWei: reward.amountWei.toFixed(),
      hasClaimed: reward.claimedAt !== null || reward.status === "paid",
      updatedAt: reward.updatedAt.toISOString(),
    };
    if (reward.paymentType !== "claimable") return base;
    return {
      ...base,
      claimableSignature: {
        contractAddress: getAddress(reward.contractAddress),
        message: { account: getAddress(beneficiary.address), amount: reward.amountWei.toFixed(), nonce: reward.voucherNonce.toFixed() },
        signature: reward.voucherSignature as Hex,
      },
    };
  }

  /** One more than a page of the user's invites after `after`, in the spec's order, read by keyset on its index. */
  async function readInvites(user: User, after: InvitesCursor | undefined): Promise<RewardWithReferee[]> {
    const afterClause = after
      ? Prisma.sql`AND (${INVITE_RANK_SQL}, "updated_at", "id") < (${after.rank}::int, ${after.updatedAt.toISOString()}::timestamp(3), ${after.id}::text)`
      : Prisma.empty;
    const rows = await prisma.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "referral_reward"
      WHERE "beneficiary_id" = ${user.id} AND "side" = 'referrer' ${afterClause}
      ORDER BY ${INVITE_RANK_SQL} DESC, "updated_at" DESC, "id" DESC
      LIMIT ${Prisma.raw(String(INVITES_PAGE_SIZE + 1))}`;
    const ids = rows.map((row) => row.id);
    const found = await prisma.referralReward.findMany({ where: { id: { in: ids } }, include: withReferee });
    const byId = new Map(found.map((reward) => [reward.id, reward]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Brings up to INLINE_ACTIVATIONS of the user's pending referrals up to date (the worker does the rest). */
  async function activatePending(user: User, indexer: IndexerClient, deadline: Deadline): Promise<void> {
    // Two reads, each on its own index: as referee (one at most), and as referrer, least recently checked first.
    const asReferee = await prisma.referral.findMany({ where: { status: "pending", refereeId: user.id }, select: { id: true } });
    const asReferrer = await prisma.referral.findMany({
      where: { status: "pending", referrerId: user.id },
      orderBy: [{ lastCheckedAt: { sort: "asc", nulls: "first" } }],
      take: INLINE_ACTIVATIONS - asReferee.length,
      select: { id: true },
    });
    for (const { id } of [...asReferee, ...asReferrer]) {
      if (deadline.remainingMs() <= 0) break;
      try {
        await options.activation.activate(id, indexer);
      } catch (error) {
        // The user still gets what is known; the worker tries this referral again.
        log.error({ err: error, referralId: id }, "referral activation failed");
      }
    }
  }

  /** ORO earned (both sides) and the number of invites that paid, as one aggregate over the covering index. */
  async function totals(user: User): Promise<{ totalWei: bigint; usersReferred: number }> {
    const bySide = await prisma.referralReward.groupBy({
      by: ["side"],
      where: { beneficiaryId: user.id },
      _sum: { amountWei: true },
      _count: { _all: true },
    });
    let totalWei = 0n;
    let usersReferred = 0;
    for (const side of bySide) {
      totalWei += BigInt(side._sum.amountWei?.toFixed() ?? "0");
      if (side.side === "referrer") usersReferred = side._count._all;
    }
    return { totalWei, usersReferred };
  }

  async function earnings(user: User, query: EarningsQuery): Promise<Earnings> {
    const key = user.address.toLowerCase();
    const firstPage = query.cursor === undefined;
    let after: InvitesCursor | undefined;
    if (query.cursor !== undefined) {
      const decoded = decodeInvitesCursor(user.id, query.cursor);
      if (decoded === "malformed" || decoded === "other-user") {
        const why = decoded === "malformed" ? "is not a cursor this API issued" : "belongs to another user's list";
        throw new ApiError(400, "VALIDATION_ERROR", `querystring.cursor: ${why}`, [
          { field: "querystring.cursor", rule: decoded === "malformed" ? "invalid_cursor" : "cursor_of_another_user", message: why },
        ]);
      }
      after = decoded;
    }
    if (firstPage && !query.bypassCache) {
      const cached = cache.get(key);
      if (cached) return cached;
    }
    const deadline = startDeadline(options.requestDeadlineMs);
    const indexer = indexerWithin(options.indexer, deadline);
    if (firstPage) await activatePending(user, indexer, deadline);

    const address = getAddress(user.address);
    const refereeReward = await prisma.referralReward.findFirst({ where: { beneficiaryId: user.id, side: "referee" }, include: withReferee });
    let invites = await readInvites(user, after);
    const page = invites.slice(0, INVITES_PAGE_SIZE);
    const changed = await refreshClaimed(address, refereeReward ? [...page, refereeReward] : page, indexer, deadline);
    // A voucher found paid moves its invite to a later group: the page is read again from the same place.
    if (changed) invites = await readInvites(user, after);

    const shown = invites.slice(0, INVITES_PAGE_SIZE);
    const last = shown.at(-1);
    const nextCursor =
      invites.length > INVITES_PAGE_SIZE && last
        ? encodeInvitesCursor(user.id, { rank: inviteRank(last), updatedAt: last.updatedAt, id: last.id })
        : null;
    const sums = await totals(user);
    const asReferee = await prisma.referral.findUnique({ where: { refereeId: user.id }, select: { referrer: { select: { username: true } } } });
    const result: Earnings = {
      totalOroEarnedWei: sums.totalWei.toString(),
      usersReferred: shown.map((reward) => ({ userId: reward.referral.referee.id, username: reward.referral.referee.username, ...present(reward, user) })),
      rewardForBeingReferee: refereeReward ? present(refereeReward, user) : null,
      referredByUsername: asReferee?.referrer.username ?? null,
      usersReferredCount: sums.usersReferred,
      nextCursor,
    };
    if (firstPage) cache.set(key, result);
    return result;
  }

  return { earnings, forget };
}
