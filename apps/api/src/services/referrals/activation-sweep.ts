import type { FastifyBaseLogger } from "fastify";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import { IndexerUnavailableError } from "../indexer/index.js";
import type { ActivationOutcome } from "./activation-decision.js";

export interface ActivationSweepParts {
  prisma: PrismaClient;
  log: FastifyBaseLogger;
  /** Decides one pending referral (activation-decision.ts). */
  activate: (referralId: string) => Promise<{ outcome: ActivationOutcome }>;
}

/**
 * Which pending referrals are decided when: the worker's sweep, least recently checked first, shared between replicas,
 * and the ones the mints just followed may decide. One referral that cannot be decided never stops the others.
 */
export function createActivationSweep(parts: ActivationSweepParts) {
  const { prisma, log, activate } = parts;

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

  return { activateDue, sweep, activateAfterMints };
}
