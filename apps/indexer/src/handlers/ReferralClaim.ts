import { ponder } from "ponder:registry";
import { referralPayout } from "ponder:schema";
import type { Address } from "viem";
import { anomalyCollector } from "../lib/anomalies";
import { boundedAmount } from "../lib/event-values";
import { recordAnomalies, updateSettings, updateStats } from "./store";

const lower = (address: Address) => address.toLowerCase() as Address;

ponder.on("ReferralClaim:VoucherClaimed", async ({ event, context }) => {
  const { note, anomalies } = anomalyCollector();
  const claimedAt = Number(event.block.timestamp);
  const { nonce, amount } = event.args;
  // A nonce pays once on chain; a second payout of one (not this contract's) is noted, not stored over the first.
  if (await context.db.find(referralPayout, { nonce })) {
    note("voucher_paid_twice", `voucher ${nonce} was paid already: this payout of ${amount} to ${lower(event.args.account)} is not recorded`);
    await updateStats(context.db, context.chain.id, claimedAt);
  } else {
    await context.db.insert(referralPayout).values({
      nonce,
      eventId: event.id,
      account: lower(event.args.account),
      amount,
      submitter: lower(event.args.submitter),
      blockNumber: Number(event.block.number),
      logIndex: event.log.logIndex,
      timestamp: claimedAt,
      transactionHash: event.transaction.hash,
    });
    await updateStats(context.db, context.chain.id, claimedAt, (current) => ({
      referralPayouts: current.referralPayouts + 1,
      referralPaidOut: boundedAmount(current.referralPaidOut + amount, "the total paid out", note),
    }));
  }
  await recordAnomalies(context.db, context.chain.id, event, "ReferralClaim:VoucherClaimed", anomalies);
});

ponder.on("ReferralClaim:SignerUpdated", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { claimSigner: lower(event.args.newSigner) });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});

ponder.on("ReferralClaim:Paused", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { claimsPaused: true });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});

ponder.on("ReferralClaim:Unpaused", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { claimsPaused: false });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});
