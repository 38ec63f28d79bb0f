import type { FastifyBaseLogger } from "fastify";
import { getAddress, type Hex } from "viem";
import { Prisma, type PaymentType, type PrismaClient, type Referral, type RewardSide, type User } from "../../generated/prisma/client.js";
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

export type ReferralActivation = ReturnType<typeof createReferralActivation>;

/**
 * Activation at the first mint: a pending referral is decided against the rules (rules.ts) once the chain
 * tells who is behind both wallets. Payable creates both rewards in the same transaction; only the
 * transition out of `pending` writes, so running it twice, or in two processes, changes nothing.
 */
export function createReferralActivation(options: ActivationOptions) {
  const { prisma, chain, allowList, log, forget } = options;

  async function facts(referral: PendingReferral, indexer: IndexerClient): Promise<ActivationFacts> {
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

  /** Decides one pending referral. `indexer` may be bounded by a request's deadline. */
  async function activate(referralId: string, indexer: IndexerClient = options.indexer): Promise<{ outcome: ActivationOutcome; referral?: Referral }> {
    const referral = await prisma.referral.findUnique({ where: { id: referralId }, include: { referee: true, referrer: true } });
    if (!referral || referral.status !== "pending") return { outcome: "unchanged" };
    let known: ActivationFacts;
    try {
      known = await facts(referral, indexer);
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
        await createReward(tx, nonces, referral.id, "referrer", referral.referrer);
        await createReward(tx, nonces, referral.id, "referee", referral.referee);
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

  /** Only the one-per-human index means "human already referred"; any other clash is a bug to surface. */
  function humanTaken(error: unknown): boolean {
    return violatedConstraint(error) === ONE_REFERRAL_PER_HUMAN_INDEX;
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

  async function createReward(tx: Prisma.TransactionClient, nonces: VoucherNonces, referralId: string, side: RewardSide, beneficiary: User) {
    const rule = options.rewards[side];
    if (rule.amountWei <= 0n) return;
    const voucher = await createSignedVoucher(tx, nonces, chain, getAddress(beneficiary.address), rule.amountWei);
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

  /**
   * Checks up to `limit` pending referrals, least recently checked first, none checked by a sweep in the last
   * `recheckAfterMs`. Returns how many became payable. The batch is taken in one statement that marks it checked (rows
   * another replica is taking are skipped): replicas sweeping at once share the pending referrals instead of each
   * checking the same least recently checked ones against the indexer.
   */
  async function activateDue(limit: number, recheckAfterMs = 0): Promise<{ checked: number; payable: number }> {
    const now = new Date();
    // Picked once (a materialised CTE), so that no rescan of the pick inside a semi-join takes more than `limit`.
    const due = await prisma.$queryRaw<{ id: string }[]>`
      WITH "picked" AS MATERIALIZED (
        SELECT "id" FROM "referral"
         WHERE "status" = 'pending' AND ("last_checked_at" IS NULL OR "last_checked_at" <= ${new Date(now.getTime() - recheckAfterMs)})
         ORDER BY "last_checked_at" ASC NULLS FIRST, "created_at" ASC
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED)
      UPDATE "referral" AS "referral" SET "last_checked_at" = ${now}
        FROM "picked"
       WHERE "referral"."id" = "picked"."id" AND "referral"."status" = 'pending'
      RETURNING "referral"."id"`;
    let payable = 0;
    for (const { id } of due) {
      try {
        if ((await activate(id)).outcome === "payable") payable++;
      } catch (error) {
        // One referral that cannot be decided (a bug, a constraint) must not stop the others.
        log.error({ err: error, referralId: id }, "referral activation failed");
      }
    }
    return { checked: due.length, payable };
  }

  /**
   * The worker's pass: batches of `batch` (activateDue) until none is due or `budgetMs` has passed, so that a backlog
   * drains at the indexer's pace rather than one batch per interval (50 every 15 s was 3.3 checks a second a
   * replica: a million pending referrals took days to come round); none after `stopping` (the process is shutting
   * down). Returns how many became payable.
   */
  async function sweep(batch: number, recheckAfterMs: number, budgetMs: number, stopping?: AbortSignal): Promise<number> {
    const started = Date.now();
    let payable = 0;
    for (;;) {
      const pass = await activateDue(batch, recheckAfterMs);
      payable += pass.payable;
      if (pass.checked < batch || Date.now() - started >= budgetMs || stopping?.aborted) return payable;
    }
  }

  /**
   * Decides the pending referrals these mints may decide (the mints followed in chain order): those of the wallets'
   * users as referees, and those of the wallets' users as referrers whose referee's human is known (they wait for a
   * human behind the referrer's wallet). Returns how many became payable. Throws IndexerUnavailableError when one could
   * not be decided for want of the indexer, so that the follower applies these mints again on its next pass.
   */
  async function activateAfterMints(receivers: readonly string[]): Promise<number> {
    const wallets = [...new Set(receivers.map((receiver) => receiver.toLowerCase()))];
    if (wallets.length === 0) return 0;
    const due = await prisma.$queryRaw<{ id: string }[]>`
      SELECT "referral"."id" FROM "referral" JOIN "user" ON "user"."id" = "referral"."referee_id"
       WHERE "user"."address" IN (${Prisma.join(wallets)}) AND "referral"."status" = 'pending'
      UNION
      SELECT "referral"."id" FROM "referral" JOIN "user" ON "user"."id" = "referral"."referrer_id"
       WHERE "user"."address" IN (${Prisma.join(wallets)}) AND "referral"."status" = 'pending' AND "referral"."referee_nullifier_hash" IS NOT NULL`;
    let payable = 0;
    let unavailable = 0;
    for (const { id } of due) {
      try {
        const { outcome } = await activate(id);
        if (outcome === "payable") payable++;
        if (outcome === "unavailable") unavailable++;
      } catch (error) {
        // One referral that cannot be decided (a bug, a constraint) must not hold up the others; the sweep retries it.
        log.error({ err: error, referralId: id }, "referral activation failed");
      }
    }
    if (unavailable > 0) throw new IndexerUnavailableError(`${unavailable} of ${due.length} referrals could not be decided: the indexer did not answer`);
    return payable;
  }

  return { activate, activateDue, sweep, activateAfterMints };
}
