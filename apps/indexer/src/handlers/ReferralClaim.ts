import { ponder } from "ponder:registry";
import { referralPayout } from "ponder:schema";
import type { Address } from "viem";
import { updateSettings, updateStats } from "./store";

const lower = (address: Address) => address.toLowerCase() as Address;

ponder.on("ReferralClaim:VoucherClaimed", async ({ event, context }) => {
  const claimedAt = Number(event.block.timestamp);
  await context.db.insert(referralPayout).values({
    nonce: event.args.nonce,
    eventId: event.id,
    account: lower(event.args.account),
    amount: event.args.amount,
    submitter: lower(event.args.submitter),
    blockNumber: Number(event.block.number),
    logIndex: event.log.logIndex,
    timestamp: claimedAt,
    transactionHash: event.transaction.hash,
  });
  await updateStats(context.db, context.chain.id, claimedAt, (current) => ({
    referralPayouts: current.referralPayouts + 1,
    referralPaidOut: current.referralPaidOut + event.args.amount,
  }));
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
