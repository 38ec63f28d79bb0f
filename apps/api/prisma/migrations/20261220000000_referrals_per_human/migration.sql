-- Referral rules per human (World ID nullifier hash), not per wallet.

-- The referrer's human, recorded when the referral becomes payable.
ALTER TABLE "referral" ADD COLUMN "referrer_nullifier_hash" TEXT;

-- The acceptance on the chain's clock (the latest block's time then): "minted before the acceptance"
-- compares block times with block times. Null when the chain did not answer (the server's clock is used).
ALTER TABLE "referral" ADD COLUMN "accepted_at_block_time" TIMESTAMP(3);

-- One referral per referee human: a pending referral whose human is known, or a payable one, holds it.
-- (Before, only payable referrals were unique per human.)
DROP INDEX "referral_payable_referee_nullifier_hash_key";
CREATE UNIQUE INDEX "referral_referee_human_key" ON "referral"("referee_nullifier_hash") WHERE "status" <> 'rejected';

-- A payable referral knows both humans, and they differ. NOT VALID: referrals made payable before this
-- migration did not record the referrer's human; every new or updated row is checked.
ALTER TABLE "referral" ADD CONSTRAINT "referral_payable_two_humans_check" CHECK (
  "status" <> 'payable'
  OR ("referee_nullifier_hash" IS NOT NULL AND "referrer_nullifier_hash" IS NOT NULL
      AND "referee_nullifier_hash" <> "referrer_nullifier_hash")
) NOT VALID;
