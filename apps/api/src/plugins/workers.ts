import fp from "fastify-plugin";
import type { Config } from "../env.js";
import { startLoop } from "../lib/loop.js";

/**
 * Background work of an API process, started when the app is ready and stopped (waiting for the run in
 * flight) when it closes: referral activation (the referee's first mint), `auto` reward payouts, and
 * claim reminders that are due, and the purge of long-expired nonces, sessions and streak answers.
 * Every step is idempotent and safe with several API processes.
 */
export default fp<{ config: Config }>(
  (fastify, { config }, done) => {
    if (!config.workers.enabled) return done();
    const loops: { stop(): Promise<void> }[] = [];
    fastify.addHook("onReady", (hookDone) => {
      const { referrals, payouts, auth, reminders, streaks } = fastify.services;
      const log = fastify.log.child({ service: "workers" });
      // Pending referrals in batches of 50 for up to a third of the interval, each checked at most once an interval.
      const activationMs = config.workers.activationIntervalMs;
      loops.push(startLoop("referral-activation", activationMs, (stopping) => referrals.sweepPending(50, activationMs, activationMs / 3, stopping), log));
      loops.push(startLoop("auth-purge", 3_600_000, () => auth.purgeExpired(), log));
      loops.push(startLoop("streak-cache-purge", 3_600_000, () => streaks.purge(), log));
      loops.push(startLoop("reminder-purge", 3_600_000, () => reminders.purgeFinished(), log));
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
