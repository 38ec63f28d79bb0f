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
import { createReferralEarnings } from "./earnings.js";

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
  const activation = createReferralActivation({ prisma, chain, indexer, allowList, rewards: options.rewards, pendingTtlMs: options.pendingTtlMs, log, forget });
  const earnings = createReferralEarnings({
    database,
    chain,
    indexer,
    activation,
    cacheTtlMs: options.earningsCacheTtlMs,
    requestDeadlineMs: options.requestDeadlineMs,
    changedElsewhere: options.earningsChangedElsewhere,
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
    earnings: earnings.earnings,
    forget,
    /** For the invalidation channel: what another process changed. */
    forgetHere: earnings.forgetHere,
    forgetAll: earnings.forgetAll,
  };
}
