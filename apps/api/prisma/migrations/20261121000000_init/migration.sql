-- CreateEnum
CREATE TYPE "NoncePurpose" AS ENUM ('sign_in', 'referral');

-- CreateEnum
CREATE TYPE "ReferralStatus" AS ENUM ('pending', 'payable', 'rejected');

-- CreateEnum
CREATE TYPE "RewardSide" AS ENUM ('referrer', 'referee');

-- CreateEnum
CREATE TYPE "PaymentType" AS ENUM ('claimable', 'auto');

-- CreateEnum
CREATE TYPE "RewardStatus" AS ENUM ('claimable', 'payout_pending', 'paid');

-- CreateTable
CREATE TABLE "user" (
    "id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "username" TEXT,
    "nullifier_hash" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_nonce" (
    "nonce" TEXT NOT NULL,
    "purpose" "NoncePurpose" NOT NULL,
    "address" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "consumed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auth_nonce_pkey" PRIMARY KEY ("nonce")
);

-- CreateTable
CREATE TABLE "session" (
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "referral_code" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "app" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referral_code_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referral" (
    "id" TEXT NOT NULL,
    "referrer_id" TEXT NOT NULL,
    "referee_id" TEXT NOT NULL,
    "referral_code_id" TEXT NOT NULL,
    "status" "ReferralStatus" NOT NULL DEFAULT 'pending',
    "referee_nullifier_hash" TEXT,
    "rejection_reason" TEXT,
    "activated_at" TIMESTAMP(3),
    "last_checked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "referral_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referral_allow_list" (
    "address" TEXT NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referral_allow_list_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "referral_reward" (
    "id" TEXT NOT NULL,
    "referral_id" TEXT NOT NULL,
    "side" "RewardSide" NOT NULL,
    "beneficiary_id" TEXT NOT NULL,
    "payment_type" "PaymentType" NOT NULL,
    "amount_wei" DECIMAL(78,0) NOT NULL,
    "voucher_nonce" DECIMAL(78,0) NOT NULL,
    "voucher_signature" TEXT NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "contract_address" TEXT NOT NULL,
    "status" "RewardStatus" NOT NULL,
    "claimed_at" TIMESTAMP(3),
    "payout_tx_hash" TEXT,
    "payout_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3),
    "locked_until" TIMESTAMP(3),
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "referral_reward_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "setting_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_address_key" ON "user"("address");

-- CreateIndex
CREATE INDEX "auth_nonce_address_purpose_idx" ON "auth_nonce"("address", "purpose");

-- CreateIndex
CREATE INDEX "session_user_id_idx" ON "session"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "referral_code_code_key" ON "referral_code"("code");

-- CreateIndex
CREATE UNIQUE INDEX "referral_code_user_id_app_key" ON "referral_code"("user_id", "app");

-- CreateIndex
CREATE UNIQUE INDEX "referral_referee_id_key" ON "referral"("referee_id");

-- CreateIndex
CREATE INDEX "referral_referrer_id_idx" ON "referral"("referrer_id");

-- CreateIndex
CREATE INDEX "referral_status_idx" ON "referral"("status");

-- CreateIndex
CREATE UNIQUE INDEX "referral_reward_voucher_nonce_key" ON "referral_reward"("voucher_nonce");

-- CreateIndex
CREATE INDEX "referral_reward_beneficiary_id_idx" ON "referral_reward"("beneficiary_id");

-- CreateIndex
CREATE INDEX "referral_reward_status_next_attempt_at_idx" ON "referral_reward"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "referral_reward_referral_id_side_key" ON "referral_reward"("referral_id", "side");

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral_code" ADD CONSTRAINT "referral_code_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral" ADD CONSTRAINT "referral_referrer_id_fkey" FOREIGN KEY ("referrer_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral" ADD CONSTRAINT "referral_referee_id_fkey" FOREIGN KEY ("referee_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral" ADD CONSTRAINT "referral_referral_code_id_fkey" FOREIGN KEY ("referral_code_id") REFERENCES "referral_code"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral_reward" ADD CONSTRAINT "referral_reward_referral_id_fkey" FOREIGN KEY ("referral_id") REFERENCES "referral"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral_reward" ADD CONSTRAINT "referral_reward_beneficiary_id_fkey" FOREIGN KEY ("beneficiary_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Beyond the Prisma schema: rules the database must hold even under concurrent writers.

-- One payable referral per human (the referee's World ID nullifier hash).
CREATE UNIQUE INDEX "referral_payable_referee_nullifier_hash_key" ON "referral"("referee_nullifier_hash") WHERE "status" = 'payable';

-- Nobody refers themselves, even by a direct insert.
ALTER TABLE "referral" ADD CONSTRAINT "referral_not_self_check" CHECK ("referrer_id" <> "referee_id");

-- Codes are 8 characters from the alphabet without look-alikes (no 0/O, 1/I/L), upper case.
ALTER TABLE "referral_code" ADD CONSTRAINT "referral_code_code_check" CHECK ("code" ~ '^[A-HJKMNP-Z2-9]{8}$');

-- Voucher nonces: a sequence, combined in code with a per-database random epoch so that two databases
-- sharing one claim contract never hand out the same nonce (the contract's bitmap is global).
CREATE SEQUENCE "voucher_nonce_seq" AS BIGINT START WITH 1;
