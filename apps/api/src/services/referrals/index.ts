import type { FastifyBaseLogger } from "fastify";
import type { Address } from "viem";
import type { Database } from "../../db/database.js";
import type { RewardSide } from "../../generated/prisma/client.js";
import { createAllowList } from "./allow-list.js";
import type { AuthService } from "../auth/index.js";
import type { ChainService } from "../chain/index.js";
import type { IndexerClient } from "../indexer/index.js";
import { createReferralAcceptance } from "./acceptance.js";
import { createReferralActivation, type RewardRule } from "./activation.js";
import { createReferralCodes } from "./codes.js";
import type { ListedMint } from "./humans.js";
import { createReferralEarnings, PAYOUTS_FOLLOWER } from "./earnings.js";
import { chainCursorAt } from "@oro/clients";
import { createChainFollower } from "../../lib/chain-follower.js";
import { INDEXER_FOLLOW_LIMIT, IndexerUnavailableError } from "../indexer/index.js";
import { voucherNonceLoader } from "../payouts/index.js";

export type { AcceptInput, Eligibility, EligibilityReason } from "./acceptance.js";
export { ELIGIBILITY_REASON } from "./acceptance.js";
export type { ActivationOutcome, RewardRule } from "./activation.js";
export type { ClaimableSignature, Earnings, EarningsQuery, RefereeReward, ReferredUserEntry } from "./earnings.js";
export { INVITES_PAGE_SIZE } from "./invites-page.js";
export { REJECTION, WAITING } from "./rules.js";
export { firstMintFromIndexer, humanBehindWallet } from "./humans.js";

export interface ReferralServiceOptions {
  database: Database;
  chain: ChainService;
  indexer: IndexerClient;
  auth: AuthService;
  rewards: Record<RewardSide, RewardRule>;
  earningsCacheTtlMs: number;
  /** Tells the other API processes whose earnings changed (an invalidation channel); absent with one process. */
  earningsChangedElsewhere?: (addresses: string[]) => void;
  /** The followers of the indexer's mints and payouts in chain order (CHAIN_FOLLOW_*). */
  follow: { leaseMs: number; payoutsFollowedWithinMs: number };
  /** How long a pending referral waits for the referee's first mint (REFERRAL_PENDING_TTL). */
  pendingTtlMs: number;
  /** One deadline for all of a request's calls to the indexer (the indexer's own timeout). */
  requestDeadlineMs: number;
  /** The wallet's first mint ever (undefined before any) through the streak cache (eligibility reads it). */
  cachedFirstClaim: (address: Address) => Promise<ListedMint | undefined>;
  log: FastifyBaseLogger;
}

export type ReferralService = ReturnType<typeof createReferralService>;

/**
 * The referral programme, in rooms by what each does: codes (codes.ts), acceptance of an invite
 * (acceptance.ts), activation at the referee's first mint (activation.ts), earnings and vouchers
 * (earnings.ts). The per-human rules they apply live in rules.ts.
 */
export function createReferralService(options: ReferralServiceOptions) {
  const { database, chain, indexer, log } = options;
  const { prisma } = database;
  const codes = createReferralCodes(database);
  const allowList = createAllowList(prisma, log);
  // Earnings are cached per address; activation and acceptance drop what they change.
  const forget = (...addresses: string[]) => earnings.forget(...addresses);
  const activation = createReferralActivation({
    prisma,
    chain,
    indexer,
    allowList,
    rewards: options.rewards,
    // Read once per process, outside the transactions that sign vouchers.
    voucherNonces: voucherNonceLoader(prisma),
    pendingTtlMs: options.pendingTtlMs,
    log,
    forget,
  });
  const earnings = createReferralEarnings({
    database,
    chain,
    indexer,
    activation,
    cacheTtlMs: options.earningsCacheTtlMs,
    requestDeadlineMs: options.requestDeadlineMs,
    changedElsewhere: options.earningsChangedElsewhere,
    payoutsFollowedWithinMs: options.follow.payoutsFollowedWithinMs,
    log,
  });
  // The indexer's events in chain order, so that nothing waits for a sweep or a read to ask: a mint decides the
  // referrals waiting for it, a payout records its voucher paid. Pages of the most the indexer lists at once. An event
  // that fails to apply is tried again next pass, and skipped after a few (chain-follower.ts) unless the indexer could
  // not tell: then the follower waits for it.
  const mayRetry = (error: unknown) => error instanceof IndexerUnavailableError;
  const mintsFollower = createChainFollower({
    database,
    name: "mints",
    fetch: (after, limit) => indexer.mintsAfter(after, limit),
    apply: async (mints) => void (await activation.activateAfterMints(mints.map((mint) => mint.receiver))),
    mayRetry,
    pageSize: INDEXER_FOLLOW_LIMIT,
    leaseMs: options.follow.leaseMs,
    // A mint a reorganisation moved under the follower is left to the sweep: mints come a thousand a block at times.
    rewindSeconds: 0,
    // A first start follows from an hour ago, not through years of mints: the sweep decides the referrals pending before.
    startAt: () => chainCursorAt(Date.now() / 1000 - 3_600),
    log,
  });
  const payoutsFollower = createChainFollower({
    database,
    name: PAYOUTS_FOLLOWER,
    fetch: (after, limit) => indexer.payoutsAfter(after, limit),
    apply: async (payouts) => void (await earnings.recordPaid(payouts.map((payout) => payout.nonce))),
    mayRetry,
    pageSize: INDEXER_FOLLOW_LIMIT,
    leaseMs: options.follow.leaseMs,
    // Reads see no other check of a voucher while the follower is current: twice the depth Ponder itself reorganises on
    // World Chain (30 blocks of 2 s) is read again each pass, a few payouts.
    rewindSeconds: 120,
    // From the first payout: a read relies on the follower once it is current, so every voucher paid before must be in.
    startAt: () => null,
    log,
  });
  const acceptance = createReferralAcceptance({
    prisma,
    chain,
    indexer,
    auth: options.auth,
    codes,
    activation,
    allowList,
    cachedFirstClaim: options.cachedFirstClaim,
    log,
    forget,
  });

  return {
    codeForUser: codes.codeForUser,
    issueAcceptNonce: acceptance.issueAcceptNonce,
    accept: acceptance.accept,
    eligibility: acceptance.eligibility,
    activate: activation.activate,
    activateDue: activation.activateDue,
    sweepPending: activation.sweep,
    activateAfterMints: activation.activateAfterMints,
    followMints: mintsFollower.pass,
    followPayouts: payoutsFollower.pass,
    recordPaid: earnings.recordPaid,
    earnings: earnings.earnings,
    forget,
    /** For the invalidation channel: what another process changed. */
    forgetHere: earnings.forgetHere,
    forgetAll: earnings.forgetAll,
  };
}
