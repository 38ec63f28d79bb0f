-- The referral allow-list per human (World ID nullifier hash), not per wallet. An entry names a human and
-- exempts that human on every wallet, and no other human. The wallet the operator named is kept for the
-- record. An entry whose human is not known yet names only the wallet ("address-only"): the API binds it to
-- the first human it learns is behind that wallet. Every existing row (a wallet) becomes an address-only entry.

ALTER TABLE "referral_allow_list" DROP CONSTRAINT "referral_allow_list_pkey";
ALTER TABLE "referral_allow_list" ADD COLUMN "id" TEXT;
UPDATE "referral_allow_list" SET "id" = gen_random_uuid()::text;
ALTER TABLE "referral_allow_list" ALTER COLUMN "id" SET NOT NULL;
ALTER TABLE "referral_allow_list" ADD CONSTRAINT "referral_allow_list_pkey" PRIMARY KEY ("id");
ALTER TABLE "referral_allow_list" ALTER COLUMN "address" DROP NOT NULL;
ALTER TABLE "referral_allow_list" ADD COLUMN "nullifier_hash" TEXT;
ALTER TABLE "referral_allow_list" ADD COLUMN "bound_at" TIMESTAMP(3);

-- One entry per human.
CREATE UNIQUE INDEX "referral_allow_list_nullifier_hash_key" ON "referral_allow_list"("nullifier_hash");

-- One address-only entry per wallet. Entries of humans may name the same wallet: several humans can mint to one.
CREATE UNIQUE INDEX "referral_allow_list_address_only_key" ON "referral_allow_list"("address") WHERE "nullifier_hash" IS NULL;
CREATE INDEX "referral_allow_list_address_idx" ON "referral_allow_list"("address");

-- The human in the form referral.referee_nullifier_hash has (0x and 64 lower-case hex digits), so that one
-- human is one value; and every entry names a human, a wallet, or both.
ALTER TABLE "referral_allow_list" ADD CONSTRAINT "referral_allow_list_human_format_check"
  CHECK ("nullifier_hash" IS NULL OR "nullifier_hash" ~ '^0x[0-9a-f]{64}$');
ALTER TABLE "referral_allow_list" ADD CONSTRAINT "referral_allow_list_names_someone_check"
  CHECK ("nullifier_hash" IS NOT NULL OR "address" IS NOT NULL);
