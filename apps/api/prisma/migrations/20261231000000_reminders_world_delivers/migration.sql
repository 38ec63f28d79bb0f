-- Reminders World may have delivered (its request's body left, World answered a 5xx or nothing): never sent again.
ALTER TYPE "NotificationStatus" ADD VALUE 'unknown';

-- When each reminder's request was about to leave: World's quota for unverified apps (40 per 4 hours) counts them.
ALTER TABLE "notification_job" ADD COLUMN "requested_at" TIMESTAMP(3);
CREATE INDEX "notification_job_requested_at_idx" ON "notification_job" ("requested_at") WHERE "requested_at" IS NOT NULL;

-- The development outbox records what World did with each address: delivered, or not and why.
ALTER TABLE "notification_outbox" ADD COLUMN "sent" BOOLEAN NOT NULL DEFAULT true, ADD COLUMN "reason" TEXT;
