import type { FastifyBaseLogger } from "fastify";
import { getAddress, type Address, type Hex } from "viem";
import { hotStatement, type Database } from "../../db/database.js";
import { Prisma, type PaymentType, type ReferralReward, type User } from "../../generated/prisma/client.js";
import type { ChainService } from "../chain/index.js";
import { startDeadline, type Deadline } from "../../lib/deadline.js";
import { indexerWithin, IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import { ApiError } from "../../lib/errors.js";
import { TtlCache } from "../../lib/ttl-cache.js";
import { frozenAnswer } from "../../lib/frozen-answer.js";
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
  /** The user's own invite is accepted and waits for their first claim to be seen: their reward is on its way. */
  refereeRewardPending: boolean;
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
  database: Database;
  chain: ChainService;
  indexer: IndexerClient;
  activation: ReferralActivation;
  cacheTtlMs: number;
  /** One deadline for all of a request's calls to the indexer (and the chain in its place). */
  requestDeadlineMs: number;
  /** Tells the other API processes that these users' earnings changed (their cached first pages are dropped). */
  changedElsewhere?: (addresses: string[]) => void;
  /**
   * How recently the payouts follower must have reached the indexer's newest payout for a read to rely on the vouchers
   * it recorded paid; a read past that (the follower behind, stopped, or not running) asks the indexer about its page.
   */
  payoutsFollowedWithinMs: number;
  log: FastifyBaseLogger;
}

/**
 * A reward as the earnings statement writes it in JSON, ready to be passed on: the amount and the nonce as the decimal
 * text PostgreSQL wrote (a Decimal per value cost every uncached page ~2 µs an invite for nothing), `claimed` whether
 * claimed_at is set, and `updatedAt` already in the answer's ISO 8601 form (a Date per time and its toISOString were
 * most of what turning a row into an answer cost).
 */
type RewardRow = Pick<ReferralReward, "id" | "paymentType" | "voucherSignature" | "contractAddress" | "status"> & {
  amountWei: string;
  voucherNonce: string;
  claimed: boolean;
  updatedAt: string;
};
type InviteRow = RewardRow & { refereeId: string; refereeUsername: string | null };

/**
 * The earnings statement's one row, as an answer is built from it: the totals as aggregates (0 for a user with none;
 * the total as the decimal text of PostgreSQL's numeric(78,0)), and without a referee reward `refereeReward` null.
 */
interface EarningsRow {
  /** Pending referrals to bring up to date in this request (first pages only). */
  pending: string[];
  /** When the payouts follower last reached the indexer's newest payout (epoch ms), or null if it never ran. */
  payoutsFollowedAt: number | null;
  earnedWei: string;
  invitesPaid: number;
  referredByUsername: string | null;
  refereePending: boolean;
  refereeReward: RewardRow | null;
  /** One more than a page, so that the answer knows whether another follows. */
  invites: InviteRow[];
}

const rewardJson = (table: string) => `'id', ${table}."id", 'paymentType', ${table}."payment_type", 'amountWei', ${table}."amount_wei"::text,
       'voucherNonce', ${table}."voucher_nonce"::text, 'voucherSignature', ${table}."voucher_signature",
       'contractAddress', ${table}."contract_address", 'status', ${table}."status",
       'claimed', ${table}."claimed_at" IS NOT NULL,
       'updatedAt', to_char(${table}."updated_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * How many times a request asks the indexer about the open vouchers its page shows (each time one request). One is
 * enough when the reads keep up with the claims; a referrer who claimed several pages' worth elsewhere since the last
 * read needs one a page, and the next read goes on where this one stopped.
 */
const CLAIM_ROUNDS = 4;

/** The payouts follower's name (chain_follower): it records the vouchers the chain paid as the indexer lists them. */
export const PAYOUTS_FOLLOWER = "payouts";

/** How many pending referrals an earnings request brings up to date itself (the worker does the rest). */
const INLINE_ACTIVATIONS = 10;

/**
 * Everything an answer reads, in one statement (one round trip): the pending referrals the request brings up to date
 * itself (first pages only), the totals (one row that triggers keep, migration 20261226000000_referral_totals), who
 * referred the user, the user's own reward as the referee, and one more than a page of the user's invites after the
 * cursor in the spec's order, read by keyset on its index, with each invited person's id and name. The rewards come
 * as JSON in the shape RewardRow names (amounts as text; the update time as the answer writes it, from the UTC
 * timestamp(3) Prisma stores). $1 is the user's id; a page after a cursor adds its rank, time and id.
 */
function earningsStatement(withPending: boolean, afterCursor: boolean) {
  const rank = INVITE_RANK_SQL.text;
  const after = afterCursor ? `AND (${rank}, "updated_at", "id") < ($2::int, $3::timestamp(3), $4::text)` : "";
  // As referee (one at most) first, then as referrer, least recently checked first (referral_pending_referrer_idx).
  const pending = withPending
    ? `(SELECT coalesce(json_agg("due"."id"), '[]'::json) FROM (
          (SELECT "id" FROM "referral" WHERE "status" = 'pending' AND "referee_id" = $1)
          UNION ALL
          (SELECT "id" FROM "referral" WHERE "status" = 'pending' AND "referrer_id" = $1
            ORDER BY "last_checked_at" ASC NULLS FIRST LIMIT ${INLINE_ACTIVATIONS})) AS "due")`
    : `'[]'::json`;
  return `
      WITH "page" AS (
        SELECT *, ${rank} AS "rank" FROM "referral_reward"
        WHERE "beneficiary_id" = $1 AND "side" = 'referrer' ${after}
        ORDER BY ${rank} DESC, "updated_at" DESC, "id" DESC
        LIMIT ${INVITES_PAGE_SIZE + 1})
      SELECT ${pending} AS "pending",
             (SELECT (extract(epoch FROM "followed_at") * 1000)::float8 FROM "chain_follower" WHERE "name" = '${PAYOUTS_FOLLOWER}') AS "payoutsFollowedAt",
             coalesce("totals"."earned_wei", 0)::text AS "earnedWei", coalesce("totals"."invites_paid", 0)::int4 AS "invitesPaid", "referrer"."username" AS "referredByUsername",
             coalesce("referral"."status" = 'pending', false) AS "refereePending",
             CASE WHEN "reward"."id" IS NULL THEN NULL ELSE json_build_object(${rewardJson('"reward"')}) END AS "refereeReward",
             (SELECT coalesce(json_agg(json_build_object(${rewardJson('"page"')}, 'refereeId', "referee"."id", 'refereeUsername', "referee"."username")
                     ORDER BY "page"."rank" DESC, "page"."updated_at" DESC, "page"."id" DESC), '[]'::json)
                FROM "page" JOIN "referral" ON "referral"."id" = "page"."referral_id" JOIN "user" AS "referee" ON "referee"."id" = "referral"."referee_id"
             ) AS "invites"
      FROM (SELECT $1::text AS "id") AS "me"
      LEFT JOIN "referral_totals" AS "totals" ON "totals"."user_id" = "me"."id"
      LEFT JOIN "referral" ON "referral"."referee_id" = "me"."id"
      LEFT JOIN "user" AS "referrer" ON "referrer"."id" = "referral"."referrer_id"
      LEFT JOIN "referral_reward" AS "reward" ON "reward"."beneficiary_id" = "me"."id" AND "reward"."side" = 'referee'`;
}

/** The first page, with the pending referrals to bring up to date; the same without them (read again after). */
const FIRST_PAGE = hotStatement<[userId: string], EarningsRow>("earnings_first_page", earningsStatement(true, false));
const FIRST_PAGE_AGAIN = hotStatement<[userId: string], EarningsRow>("earnings_first_page_again", earningsStatement(false, false));
/** A page after a cursor: its rank, its updated time (ISO) and its id. */
const PAGE_AFTER = hotStatement<[userId: string, rank: number, updatedAt: string, id: string], EarningsRow>(
  "earnings_page_after",
  earningsStatement(false, true),
);

/**
 * The voucher contract's checksummed address. Every reward names one of our few contract addresses, and viem's own
 * cache of checksums cost 8% of the CPU of an uncached page of 50 invites: they are kept here (a handful, bounded).
 */
const checksums = new Map<string, Address>();
function checksummed(address: string): Address {
  let checksum = checksums.get(address);
  if (checksum === undefined) {
    if (checksums.size >= 64) checksums.clear();
    checksum = getAddress(address);
    checksums.set(address, checksum);
  }
  return checksum;
}

export type ReferralEarnings = ReturnType<typeof createReferralEarnings>;

/**
 * What a user earned: the totals as aggregates, the referee's own reward, and one page of invites (keyset-paged
 * in the spec's order) with vouchers, brought up to date within one deadline per request. Nothing here reads
 * more rows than a page, whatever the user's history.
 */
export function createReferralEarnings(options: EarningsOptions) {
  const { database, chain, log } = options;
  const { prisma } = database;
  // Only first pages are cached: they are what the share screen opens on.
  const cache = new TtlCache<Earnings>(options.cacheTtlMs);

  /** Drops these users' cached first pages here and in every other API process. */
  function forget(...addresses: string[]) {
    forgetHere(...addresses);
    options.changedElsewhere?.(addresses);
  }

  function forgetHere(...addresses: string[]) {
    for (const address of addresses) cache.delete(address.toLowerCase());
  }

  /**
   * Records vouchers of these rewards that the chain has paid (the indexer's payouts; the contract's bitmap when
   * it is down). Returns whether any changed.
   */
  async function refreshClaimed(rewards: RewardRow[], indexer: IndexerClient, deadline: Deadline): Promise<boolean> {
    const open = rewards.filter((reward) => !reward.claimed);
    if (open.length === 0) return false;
    let paid: Set<bigint>;
    try {
      // One request for the page's open vouchers, however many the account was paid before.
      paid = await indexer.claimedNonces(open.map((reward) => BigInt(reward.voucherNonce)));
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      log.warn({ err: error }, "payouts read from the chain: indexer unavailable");
      paid = new Set();
      for (const reward of open) {
        const nonce = BigInt(reward.voucherNonce);
        // The chain shares the request's deadline: what it cannot say in time stays "not claimed".
        const used = await deadline.run(() => chain.isNonceUsed(nonce)).catch(() => false);
        if (used) paid.add(nonce);
      }
    }
    const found = open.filter((reward) => paid.has(BigInt(reward.voucherNonce)));
    if (found.length === 0) return false;
    // Two statements for the whole page (the caller reads the page again): an auto reward paid is also done.
    const now = new Date();
    const ids = (type: PaymentType) => found.filter((reward) => reward.paymentType === type).map((reward) => reward.id);
    const [claimable, auto] = [ids("claimable"), ids("auto")];
    if (claimable.length > 0) await prisma.referralReward.updateMany({ where: { id: { in: claimable } }, data: { claimedAt: now } });
    if (auto.length > 0) await prisma.referralReward.updateMany({ where: { id: { in: auto } }, data: { claimedAt: now, status: "paid", lockedUntil: null } });
    return true;
  }

  /** `account`: the beneficiary's checksummed address (one per answer). */
  function present(reward: RewardRow, account: Address): RefereeReward {
    const hasClaimed = reward.claimed || reward.status === "paid";
    if (reward.paymentType !== "claimable") return { paymentType: reward.paymentType, paymentAmountWei: reward.amountWei, hasClaimed, updatedAt: reward.updatedAt };
    return {
      paymentType: reward.paymentType,
      paymentAmountWei: reward.amountWei,
      hasClaimed,
      updatedAt: reward.updatedAt,
      claimableSignature: {
        contractAddress: checksummed(reward.contractAddress),
        message: { account, amount: reward.amountWei, nonce: reward.voucherNonce },
        signature: reward.voucherSignature as Hex,
      },
    };
  }

  async function read(user: User, after: InvitesCursor | undefined, withPending: boolean): Promise<EarningsRow> {
    const [row] = after
      ? await database.run(PAGE_AFTER, [user.id, after.rank, after.updatedAt.toISOString(), after.id])
      : await database.run(withPending ? FIRST_PAGE : FIRST_PAGE_AGAIN, [user.id]);
    if (!row) throw new Error("the earnings query returned no row");
    return row;
  }

  /** Brings these pending referrals up to date within the request's deadline (the worker does the rest). */
  async function activate(pending: string[], indexer: IndexerClient, deadline: Deadline): Promise<void> {
    for (const id of pending.slice(0, INLINE_ACTIVATIONS)) {
      if (deadline.remainingMs() <= 0) break;
      try {
        await options.activation.activate(id, indexer);
      } catch (error) {
        // The user still gets what is known; the worker tries this referral again.
        log.error({ err: error, referralId: id }, "referral activation failed");
      }
    }
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
    // The answer is kept only if nothing changed for this user (here or in another process) since its last read began:
    // a copy of what was read before a change would hide the change until it expires.
    let readFrom = cache.mark();
    const readAgain = () => {
      readFrom = cache.mark();
      return read(user, after, false);
    };
    let answer = await read(user, after, firstPage);
    // What the activations changed (a referral paid, new rewards) is read again; most users have nothing pending.
    if (answer.pending.length > 0) {
      await activate(answer.pending, indexer, deadline);
      answer = await readAgain();
    }
    const address = getAddress(user.address);
    // With the payouts followed (recently), every voucher the chain paid is recorded already, on every page. Otherwise a
    // voucher found paid moves its invite to a later group: the page is read again from the same place (and the other
    // processes drop their copies of it), which may show open vouchers that were not asked about yet.
    const followed = answer.payoutsFollowedAt !== null && Date.now() - answer.payoutsFollowedAt <= options.payoutsFollowedWithinMs;
    let changed = false;
    for (let round = 0; round < CLAIM_ROUNDS && !followed && deadline.remainingMs() > 0; round++) {
      const page = answer.invites.slice(0, INVITES_PAGE_SIZE);
      if (!(await refreshClaimed(answer.refereeReward ? [...page, answer.refereeReward] : page, indexer, deadline))) break;
      changed = true;
      answer = await readAgain();
    }
    if (changed) options.changedElsewhere?.([key]);
    const { refereeReward, invites } = answer;
    const shown = invites.slice(0, INVITES_PAGE_SIZE);
    const last = shown.at(-1);
    const nextCursor =
      invites.length > INVITES_PAGE_SIZE && last
        ? encodeInvitesCursor(user.id, { rank: inviteRank(last), updatedAt: new Date(last.updatedAt), id: last.id })
        : null;
    const result: Earnings = {
      totalOroEarnedWei: answer.earnedWei,
      usersReferred: shown.map((reward) => ({ userId: reward.refereeId, username: reward.refereeUsername, ...present(reward, address) })),
      rewardForBeingReferee: refereeReward ? present(refereeReward, address) : null,
      referredByUsername: answer.referredByUsername,
      refereeRewardPending: answer.refereePending,
      usersReferredCount: answer.invitesPaid,
      nextCursor,
    };
    // Frozen: the cached first page is served as is many times, and written to JSON once (plugins/serializer.ts).
    if (firstPage) cache.set(key, frozenAnswer(result), readFrom);
    return result;
  }

  /**
   * Records these vouchers as paid (the payouts followed in chain order), those already recorded left as they are, and
   * drops the beneficiaries' cached first pages here and in the other processes. Returns how many were new.
   */
  async function recordPaid(nonces: readonly bigint[]): Promise<number> {
    if (nonces.length === 0) return 0;
    const now = new Date();
    // As refreshClaimed: a claimable voucher is claimed; an auto reward paid is also done (whoever sent it).
    const beneficiaries = await prisma.$queryRaw<{ address: string; vouchers: number }[]>`
      WITH "paid" AS (
        UPDATE "referral_reward"
           SET "claimed_at" = ${now}, "updated_at" = ${now},
               "status" = CASE WHEN "payment_type" = 'auto' THEN 'paid'::"RewardStatus" ELSE "status" END,
               "locked_until" = CASE WHEN "payment_type" = 'auto' THEN NULL ELSE "locked_until" END
         WHERE "voucher_nonce" IN (${Prisma.join(nonces.map((nonce) => nonce.toString()))}) AND "claimed_at" IS NULL
        RETURNING "beneficiary_id")
      SELECT "user"."address", count(*)::int AS "vouchers" FROM "paid" JOIN "user" ON "user"."id" = "paid"."beneficiary_id" GROUP BY "user"."address"`;
    if (beneficiaries.length > 0) forget(...beneficiaries.map((row) => row.address));
    return beneficiaries.reduce((sum, row) => sum + row.vouchers, 0);
  }

  return { earnings, recordPaid, forget, forgetHere, forgetAll: () => cache.clear() };
}
