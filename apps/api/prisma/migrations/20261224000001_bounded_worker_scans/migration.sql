-- Reads that grew with a table's size, bounded by an index.

-- The payout worker leases the oldest due payout of the `auto` rewards: it walks the pending ones in that order
-- instead of sorting every pending payout at each lease.
CREATE INDEX "referral_reward_payout_queue_idx" ON "referral_reward" ("created_at") WHERE "status" = 'payout_pending';

-- A wallet's swap volume (GET /api/user/uno_rewards) is an index-only sum over that wallet's swaps.
DROP INDEX "partner_swap_address_idx";
CREATE INDEX "partner_swap_address_idx" ON "partner_swap" ("address") INCLUDE ("volume_usd");
