-- Where each follower of the indexer's events in chain order (mints, payouts) has got to, shared by the replicas:
-- one replica holds a follower at a time (locked_until); followed_at is when a pass last reached the newest event,
-- which the earnings read checks before relying on the payouts followed instead of asking the indexer.
CREATE TABLE "chain_follower" (
    "name" TEXT NOT NULL,
    "cursor" TEXT,
    "followed_at" TIMESTAMPTZ(3),
    "locked_until" TIMESTAMPTZ(3),
    CONSTRAINT "chain_follower_pkey" PRIMARY KEY ("name")
);

-- The mints followed name wallets: the pending referrals of a referrer whose referee's human is known wait for a mint
-- to the referrer's wallet (referral_pending_referrer_idx finds a referrer's pending ones; this keeps the scan to those).
CREATE INDEX "referral_pending_known_referee_idx" ON "referral" ("referrer_id") WHERE "status" = 'pending' AND "referee_nullifier_hash" IS NOT NULL;
