-- CreateEnum
CREATE TYPE "NotificationStatus" AS ENUM ('pending', 'sending', 'sent', 'not_delivered', 'failed', 'abandoned', 'cancelled');

-- CreateTable
CREATE TABLE "streak_cache" (
    "address" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "fetched_at" TIMESTAMP(3) NOT NULL,
    "fresh_until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "streak_cache_pkey" PRIMARY KEY ("address","kind")
);

-- CreateTable
CREATE TABLE "notification_preference" (
    "address" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_preference_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "notification_job" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "due_at" TIMESTAMP(3) NOT NULL,
    "status" "NotificationStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMP(3),
    "locked_by" TEXT,
    "sent_at" TIMESTAMP(3),
    "result" TEXT,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_outbox" (
    "id" TEXT NOT NULL,
    "job_id" TEXT,
    "address" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "mini_app_path" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_email" (
    "user_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "user_email_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "partner_swap" (
    "id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "volume_usd" DECIMAL(24,6) NOT NULL,
    "swapped_at" TIMESTAMP(3),
    "imported_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partner_swap_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "swap_reward_claim" (
    "address" TEXT NOT NULL,
    "note" TEXT,
    "claimed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "swap_reward_claim_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "poll" (
    "id" TEXT NOT NULL,
    "question" JSONB NOT NULL,
    "opens_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closes_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "poll_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "poll_option" (
    "id" TEXT NOT NULL,
    "poll_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "label" JSONB NOT NULL,

    CONSTRAINT "poll_option_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "poll_vote" (
    "poll_id" TEXT NOT NULL,
    "nullifier_hash" TEXT NOT NULL,
    "option_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "poll_vote_pkey" PRIMARY KEY ("poll_id","nullifier_hash")
);

-- CreateIndex
CREATE INDEX "streak_cache_fetched_at_idx" ON "streak_cache"("fetched_at");

-- CreateIndex
CREATE INDEX "notification_job_status_due_at_idx" ON "notification_job"("status", "due_at");

-- CreateIndex
CREATE INDEX "notification_job_address_idx" ON "notification_job"("address");

-- CreateIndex
CREATE INDEX "notification_outbox_address_idx" ON "notification_outbox"("address");

-- CreateIndex
CREATE INDEX "partner_swap_address_idx" ON "partner_swap"("address");

-- CreateIndex
CREATE UNIQUE INDEX "poll_option_poll_id_position_key" ON "poll_option"("poll_id", "position");

-- CreateIndex
CREATE INDEX "poll_vote_option_id_idx" ON "poll_vote"("option_id");

-- CreateIndex
CREATE INDEX "poll_vote_user_id_idx" ON "poll_vote"("user_id");

-- AddForeignKey
ALTER TABLE "user_email" ADD CONSTRAINT "user_email_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_option" ADD CONSTRAINT "poll_option_poll_id_fkey" FOREIGN KEY ("poll_id") REFERENCES "poll"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_vote" ADD CONSTRAINT "poll_vote_poll_id_fkey" FOREIGN KEY ("poll_id") REFERENCES "poll"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_vote" ADD CONSTRAINT "poll_vote_option_id_fkey" FOREIGN KEY ("option_id") REFERENCES "poll_option"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_vote" ADD CONSTRAINT "poll_vote_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Beyond the Prisma schema.

-- One pending reminder of a kind per address: scheduling again replaces it, never adds a second.
CREATE UNIQUE INDEX "notification_job_pending_key" ON "notification_job"("address", "kind") WHERE "status" = 'pending';

-- A vote's option belongs to the vote's poll.
ALTER TABLE "poll_option" ADD CONSTRAINT "poll_option_id_poll_key" UNIQUE ("id", "poll_id");
ALTER TABLE "poll_vote" ADD CONSTRAINT "poll_vote_option_in_poll_fkey" FOREIGN KEY ("option_id", "poll_id") REFERENCES "poll_option"("id", "poll_id") ON DELETE CASCADE;

-- Swap volumes are never negative; addresses are stored lower case.
ALTER TABLE "partner_swap" ADD CONSTRAINT "partner_swap_volume_check" CHECK ("volume_usd" >= 0);
ALTER TABLE "partner_swap" ADD CONSTRAINT "partner_swap_address_check" CHECK ("address" ~ '^0x[0-9a-f]{40}$');
