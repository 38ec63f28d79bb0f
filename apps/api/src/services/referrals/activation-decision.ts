import type { FastifyBaseLogger } from "fastify";
import { getAddress, type Hex } from "viem";
import type { PaymentType, Prisma, PrismaClient, Referral, RewardSide, User } from "../../generated/prisma/client.js";
import type { AllowList } from "./allow-list.js";
import type { ChainService } from "../chain/index.js";
import { violatedConstraint } from "../../lib/errors.js";
import { IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import { createSignedVoucher, type VoucherNonces } from "../payouts/index.js";
import { firstMintOfHuman, humanBehindWallet, humansOfWallet, rememberHuman } from "./humans.js";
import { decideActivation, expiredWhilePending, ONE_REFERRAL_PER_HUMAN_INDEX, REJECTION, type ActivationFacts, type RejectionReason } from "./rules.js";

export interface RewardRule {
  amountWei: bigint;
  paymentType: PaymentType;
}

export type ActivationOutcome = "payable" | "pending" | "rejected" | "unavailable" | "unchanged";

type PendingReferral = Referral & { referee: User; referrer: User };

export interface ActivationOptions {
  prisma: PrismaClient;
  chain: ChainService;
  indexer: IndexerClient;
  allowList: Pick<AllowList, "exempts">;
  rewards: Record<RewardSide, RewardRule>;
  /** This database's voucher nonces (payouts/vouchers.ts: voucherNonceLoader). */
  voucherNonces: () => Promise<VoucherNonces>;
  /** How long after its acceptance a referral may stay pending (REFERRAL_PENDING_TTL). */
  pendingTtlMs: number;
  log: FastifyBaseLogger;
  /** Drops cached earnings of these addresses. */
  forget: (...addresses: string[]) => void;
}

/**
 * The decision on one pending referral at the referee's first mint, against the rules (rules.ts), once the chain
 * tells who is behind both wallets. Payable creates both rewards in the same transaction; only the transition out of
 * `pending` writes, so deciding it twice, or in two processes, changes nothing.
 */
export function createActivationDecision(options: ActivationOptions) {
  const { prisma, log, forget } = options;

  /** Decides one pending referral. `indexer` may be bounded by a request's deadline. */
  async function activate(referralId: string, indexer: IndexerClient = options.indexer): Promise<{ outcome: ActivationOutcome; referral?: Referral }> {
    const referral = await prisma.referral.findUnique({ where: { id: referralId }, include: { referee: true, referrer: true } });
    if (!referral || referral.status !== "pending") return { outcome: "unchanged" };
    let known: ActivationFacts;
    try {
      known = await facts(options, referral, indexer);
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      log.warn({ err: error, referralId }, "referral activation postponed: indexer unavailable");
      return { outcome: "unavailable" };
    } finally {
      await prisma.referral.updateMany({ where: { id: referralId, status: "pending" }, data: { lastCheckedAt: new Date() } });
    }
    const decision = decideActivation(known);
    const expiresAt = new Date(referral.createdAt.getTime() + options.pendingTtlMs);
    if (expiredWhilePending(decision, known, expiresAt, new Date())) return reject(referral, known.refereeHuman, REJECTION.pendingExpired);
    if (decision.kind === "reject") return reject(referral, known.refereeHuman, decision.reason);
    if (decision.kind === "wait") {
      // A known referee human is held by this referral at once, so that another wallet of the same human cannot take it meanwhile.
      if (known.refereeHuman && referral.refereeNullifierHash !== known.refereeHuman) {
        const held = await holdHuman(referral, known.refereeHuman);
        if (held) return held;
      }
      log.debug({ referralId, reason: decision.reason }, "referral stays pending");
      return { outcome: "pending" };
    }
    // The database's epoch is read (once per process) before the transaction, which then only draws from the sequence.
    const nonces = await options.voucherNonces();
    try {
      const updated = await prisma.$transaction(async (tx) => {
        const { count } = await tx.referral.updateMany({
          where: { id: referralId, status: "pending" },
          data: {
            status: "payable",
            refereeNullifierHash: decision.refereeHuman,
            referrerNullifierHash: decision.referrerHuman,
            activatedAt: new Date(),
          },
        });
        if (count === 0) return undefined;
        await createReward(options, tx, nonces, referral.id, "referrer", referral.referrer);
        await createReward(options, tx, nonces, referral.id, "referee", referral.referee);
        return tx.referral.findUniqueOrThrow({ where: { id: referralId } });
      });
      forget(referral.referrer.address, referral.referee.address);
      if (!updated) return { outcome: "unchanged" };
      log.info({ referralId, human: decision.refereeHuman }, "referral payable: rewards created");
      return { outcome: "payable", referral: updated };
    } catch (error) {
      if (humanTaken(error)) return reject(referral, decision.refereeHuman, REJECTION.humanAlreadyReferred);
      throw error;
    }
  }

  /** Records the referee's human on the pending referral; a refusal by the one-per-human index rejects it. */
  async function holdHuman(referral: PendingReferral, human: Hex) {
    try {
      await prisma.referral.updateMany({ where: { id: referral.id, status: "pending" }, data: { refereeNullifierHash: human } });
      return undefined;
    } catch (error) {
      if (humanTaken(error)) return reject(referral, human, REJECTION.humanAlreadyReferred);
      throw error;
    }
  }

  async function reject(referral: PendingReferral, human: Hex | null, reason: RejectionReason) {
    // Only a referral that is still pending is rejected: another process may have decided it meanwhile.
    const { count } = await prisma.referral.updateMany({
      where: { id: referral.id, status: "pending" },
      data: {
        status: "rejected",
        rejectionReason: reason,
        ...(human && reason !== REJECTION.humanAlreadyReferred ? { refereeNullifierHash: human } : {}),
      },
    });
    if (count === 0) return { outcome: "unchanged" as const };
    forget(referral.referrer.address, referral.referee.address);
    log.info({ referralId: referral.id, reason }, "referral rejected");
    return { outcome: "rejected" as const, referral: await prisma.referral.findUniqueOrThrow({ where: { id: referral.id } }) };
  }

  return { activate };
}

/** What the rules decide a referral on: the humans behind both wallets, the referee's first mint, the allow-list. */
async function facts(options: ActivationOptions, referral: PendingReferral, indexer: IndexerClient): Promise<ActivationFacts> {
  const { prisma, allowList } = options;
  const referee = await humansOfWallet(indexer, referral.referee);
  // A referral that holds a human keeps it; otherwise the human behind the wallet, as every path judges it.
  const held = referral.refereeNullifierHash ? (referral.refereeNullifierHash as Hex) : null;
  if (held) await rememberHuman(prisma, referral.referee, held);
  const refereeHuman = held ?? (await humanBehindWallet(prisma, referral.referee, () => Promise.resolve(referee.firstMint)));
  if (refereeHuman) referee.humans.add(refereeHuman);
  if (!refereeHuman) {
    // Nothing is decided before the human is known (see decideActivation): the allow-list waits too.
    return { refereeHuman, refereeHumans: referee.humans, refereeFirstMintedAt: null, referrerHumans: new Set(), acceptedAt: referral.acceptedAtBlockTime ?? referral.createdAt, refereeAllowListed: false };
  }
  // The allow-list per human; an address-only entry of the referee's wallet becomes this human's here.
  const allowListed = await allowList.exempts(referral.referee.address, refereeHuman);
  const refereeFirstMintedAt = await firstMintOfHuman(indexer, refereeHuman, referee.firstMint);
  const referrer = await humansOfWallet(indexer, referral.referrer);
  return {
    refereeHuman,
    refereeHumans: referee.humans,
    refereeFirstMintedAt,
    referrerHumans: referrer.humans,
    acceptedAt: referral.acceptedAtBlockTime ?? referral.createdAt,
    refereeAllowListed: allowListed,
  };
}

/** Only the one-per-human index means "human already referred"; any other clash is a bug to surface. */
function humanTaken(error: unknown): boolean {
  return violatedConstraint(error) === ONE_REFERRAL_PER_HUMAN_INDEX;
}

/** One side's reward of a payable referral, with its signed voucher, in the transaction that makes it payable. */
async function createReward(options: ActivationOptions, tx: Prisma.TransactionClient, nonces: VoucherNonces, referralId: string, side: RewardSide, beneficiary: User) {
  const rule = options.rewards[side];
  if (rule.amountWei <= 0n) return;
  const voucher = await createSignedVoucher(tx, nonces, options.chain, getAddress(beneficiary.address), rule.amountWei);
  await tx.referralReward.create({
    data: {
      referralId,
      side,
      beneficiaryId: beneficiary.id,
      paymentType: rule.paymentType,
      amountWei: voucher.amount.toString(),
      voucherNonce: voucher.nonce.toString(),
      voucherSignature: voucher.signature,
      chainId: voucher.chainId,
      contractAddress: voucher.contractAddress,
      status: rule.paymentType === "auto" ? "payout_pending" : "claimable",
    },
  });
}
