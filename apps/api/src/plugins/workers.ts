import fp from "fastify-plugin";
import type { Config } from "../env.js";
import { startLoop } from "../lib/loop.js";

/** How long one follower pass may go on through a backlog before the loop's next turn (it resumes where it stopped). */
const FOLLOW_BUDGET_MS = 10_000;

/**
 * Background work of an API process, started when the app is ready and stopped (waiting for the run in
 * flight) when it closes: the followers of the indexer's mints and payouts, the sweep of pending referrals, `auto` reward payouts, and
 * claim reminders that are due, and the purge of long-expired nonces, sessions and streak answers, and of pending
 * World ID enrolments that can no longer land.
 * Every step is idempotent and safe with several API processes.
 */
export default fp<{ config: Config }>(
  (fastify, { config }, done) => {
    if (!config.workers.enabled) return done();
    const loops: { stop(): Promise<void> }[] = [];
    fastify.addHook("onReady", (hookDone) => {
      const { referrals, payouts, auth, reminders, streaks, pendingEnrolments } = fastify.services;
      const log = fastify.log.child({ service: "workers" });
      // The indexer's mints and payouts in chain order: a referral is decided, a voucher recorded paid, within a pass.
      const followMs = config.workers.followIntervalMs;
      loops.push(startLoop("mints-follower", followMs, (stopping) => referrals.followMints(FOLLOW_BUDGET_MS, stopping), log));
      loops.push(startLoop("payouts-follower", followMs, (stopping) => referrals.followPayouts(FOLLOW_BUDGET_MS, stopping), log));
      // Pending referrals in batches of 50 for up to a third of the interval, each checked at most once per recheck.
      const activationMs = config.workers.activationIntervalMs;
      loops.push(
        startLoop("referral-activation", activationMs, (stopping) => referrals.sweepPending(50, config.workers.activationRecheckMs, activationMs / 3, stopping), log),
      );
      loops.push(startLoop("auth-purge", 3_600_000, () => auth.purgeExpired(), log));
      loops.push(startLoop("streak-cache-purge", 3_600_000, () => streaks.purge(), log));
      loops.push(startLoop("reminder-purge", 3_600_000, () => reminders.purgeFinished(), log));
      loops.push(startLoop("pending-enrolment-purge", 3_600_000, () => pendingEnrolments.purgeUnusable(), log));
      loops.push(startLoop("claim-reminders", config.workers.notificationIntervalMs, (stopping) => reminders.runOnce(60_000, stopping), log));
      // With a payout wallet, also when neither side is `auto` (any longer): rewards queued before still get paid.
      if (config.payoutWalletKey) {
        loops.push(startLoop("referral-payouts", config.workers.payoutIntervalMs, () => payouts.runOnce(), log));
      }
      hookDone();
    });
    // Closing tells every loop to stop at once (a pass leases nothing more) but waits for them only once the server
    // has stopped listening: a request World is still retrying (minutes) is waited for without this process answering
    // 503 meanwhile; the load balancer sends its traffic to the other replicas.
    let stopped: Promise<unknown> | undefined;
    const stopAll = () => (stopped ??= Promise.all(loops.map((loop) => loop.stop())));
    fastify.addHook("preClose", (hookDone) => {
      void stopAll();
      hookDone();
    });
    fastify.addHook("onClose", async () => {
      await stopAll();
    });
    done();
  },
  { name: "workers", dependencies: ["services"] },
);
