import type { FastifyBaseLogger } from "fastify";
import { getAddress, type Address, type Hex } from "viem";
import type { PrismaClient, ReferralReward } from "../../generated/prisma/client.js";
import type { ChainService } from "../chain/index.js";

/**
 * Pays `auto` referral rewards: submits each voucher to the claim contract from the payout wallet.
 *
 * Crash safety rests on the contract: a voucher nonce pays at most once, so the worker never decides
 * from its own memory whether a reward was paid. Before sending, and again after any interruption, it asks
 * the chain whether the nonce is used; a used nonce marks the reward paid. A job is leased (locked_until)
 * so that two workers, or a restarted one, do not send it at the same time; every wait of the worker ends
 * before its lease does, so a lease runs out only when its worker died, and is then taken over. Failures
 * retry with exponential backoff.
 */
export interface PayoutWorkerOptions {
  prisma: PrismaClient;
  chain: ChainService;
  log: FastifyBaseLogger;
  leaseMs: number;
  maxBackoffMs: number;
  confirmations: number;
  /** Called after the payout was paid (or found paid), e.g. to drop cached earnings. */
  onPaid?: (reward: ReferralReward) => void;
  /** Test seam: runs right after a transaction was sent, before anything else is recorded. */
  afterSubmit?: (reward: ReferralReward, txHash: Hex) => Promise<void>;
}

export type PayoutOutcome = "paid" | "retry" | "idle";

export type PayoutWorker = ReturnType<typeof createPayoutWorker>;

const BASE_BACKOFF_MS = 2_000;

export function createPayoutWorker(options: PayoutWorkerOptions) {
  const { prisma, chain, log } = options;

  /** Reserves the next due payout for this worker, or returns undefined. */
  async function lease(): Promise<{ reward: ReferralReward; leaseEndsAt: number } | undefined> {
    const leasedAt = Date.now();
    const rows = await prisma.$queryRaw<{ id: string }[]>`
      UPDATE "referral_reward"
         SET "locked_until" = now() + make_interval(secs => ${options.leaseMs / 1000}::double precision),
             "payout_attempts" = "payout_attempts" + 1,
             "updated_at" = now()
       WHERE "id" = (
         SELECT "id" FROM "referral_reward"
          WHERE "status" = 'payout_pending'
            AND ("next_attempt_at" IS NULL OR "next_attempt_at" <= now())
            AND ("locked_until" IS NULL OR "locked_until" < now())
          ORDER BY "created_at"
          LIMIT 1
          FOR UPDATE SKIP LOCKED)
      RETURNING "id"`;
    const id = rows[0]?.id;
    // Counted from before the lease was taken: this process's clock never gives it more than the database did.
    if (!id) return undefined;
    return { reward: await prisma.referralReward.findUniqueOrThrow({ where: { id } }), leaseEndsAt: leasedAt + options.leaseMs };
  }

  async function markPaid(reward: ReferralReward, txHash: Hex | null): Promise<void> {
    const updated = await prisma.referralReward.update({
      where: { id: reward.id },
      data: {
        status: "paid",
        claimedAt: reward.claimedAt ?? new Date(),
        lockedUntil: null,
        lastError: null,
        ...(txHash ? { payoutTxHash: txHash } : {}),
      },
    });
    log.info({ rewardId: reward.id, nonce: reward.voucherNonce.toFixed(), txHash }, "auto referral reward paid");
    options.onPaid?.(updated);
  }

  async function postpone(reward: ReferralReward, error: unknown): Promise<void> {
    const delay = Math.min(options.maxBackoffMs, BASE_BACKOFF_MS * 2 ** Math.max(0, reward.payoutAttempts - 1));
    await prisma.referralReward.update({
      where: { id: reward.id },
      data: { lockedUntil: null, nextAttemptAt: new Date(Date.now() + delay), lastError: (error as Error).message.slice(0, 500) },
    });
    log.warn({ rewardId: reward.id, err: error, retryInMs: delay }, "auto referral payout failed; will retry");
  }

  /**
   * Pays one leased reward. Every wait is bounded by what is left of the lease (less a margin for the
   * bookkeeping after it), so the lease outlives the work: no second worker can take the job while this
   * one still waits. What does not finish in time is postponed; a transaction already sent is waited for
   * by the next attempt, never sent again while the node still has it.
   */
  async function pay(reward: ReferralReward, leaseEndsAt: number): Promise<PayoutOutcome> {
    const workEndsAt = leaseEndsAt - Math.min(options.leaseMs / 5, 10_000);
    const left = () => Math.max(1, workEndsAt - Date.now());
    const nonce = BigInt(reward.voucherNonce.toFixed());
    const voucher = { account: getAddress(await beneficiaryAddress(reward)), amount: BigInt(reward.amountWei.toFixed()), nonce };
    try {
      if (await chain.isNonceUsed(nonce)) {
        await markPaid(reward, null);
        return "paid";
      }
      if (reward.payoutTxHash) {
        // An earlier attempt sent a transaction and stopped before it knew the result: wait for that one.
        const hash = reward.payoutTxHash as Hex;
        const receipt = await chain.publicClient
          .waitForTransactionReceipt({ hash, timeout: left(), confirmations: options.confirmations })
          .catch(() => undefined);
        if (await chain.isNonceUsed(nonce)) {
          await markPaid(reward, receipt?.status === "success" ? receipt.transactionHash : null);
          return "paid";
        }
        const stillPending = await chain.publicClient.getTransaction({ hash }).then((tx) => tx.blockNumber === null, () => false);
        if (stillPending) throw new Error(`payout transaction ${hash} is still pending`);
      }
      if (workEndsAt <= Date.now()) throw new Error("the lease ran out before the voucher could be sent");
      const txHash = await submitSerialised(voucher, reward.voucherSignature as Hex, left());
      await options.afterSubmit?.(reward, txHash);
      await prisma.referralReward.update({ where: { id: reward.id }, data: { payoutTxHash: txHash } });
      const receipt = await chain.publicClient.waitForTransactionReceipt({
        hash: txHash,
        timeout: left(),
        confirmations: options.confirmations,
      });
      if (receipt.status === "success" || (await chain.isNonceUsed(nonce))) {
        await markPaid(reward, receipt.status === "success" ? txHash : null);
        return "paid";
      }
      throw new Error(`payout transaction ${txHash} reverted`);
    } catch (error) {
      // A revert such as VoucherAlreadyClaimed means someone paid it: the bitmap has the last word.
      if (await chain.isNonceUsed(nonce).catch(() => false)) {
        await markPaid(reward, null);
        return "paid";
      }
      await postpone(reward, error);
      return "retry";
    }
  }

  /**
   * One sender at a time per payout wallet, across every API process: two concurrent sends would pick the
   * same account nonce and one would fail. A transaction-scoped advisory lock is held until the node has
   * the transaction (not until it is mined), so the next sender sees it as pending.
   */
  async function submitSerialised(voucher: { account: Address; amount: bigint; nonce: bigint }, signature: Hex, withinMs: number): Promise<Hex> {
    const wallet = chain.payoutWallet ?? "none";
    const bound = Math.min(30_000, withinMs);
    return prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${wallet}))`;
        return chain.submitVoucher(voucher, signature);
      },
      { maxWait: bound, timeout: bound },
    );
  }

  async function beneficiaryAddress(reward: ReferralReward): Promise<string> {
    const user = await prisma.user.findUniqueOrThrow({ where: { id: reward.beneficiaryId } });
    return user.address;
  }

  /** Pays due rewards one by one until none is due; returns the outcomes. */
  async function runOnce(maxJobs = 50): Promise<PayoutOutcome[]> {
    const outcomes: PayoutOutcome[] = [];
    for (let i = 0; i < maxJobs; i++) {
      const leased = await lease();
      if (!leased) break;
      outcomes.push(await pay(leased.reward, leased.leaseEndsAt));
    }
    return outcomes;
  }

  return { runOnce };
}
