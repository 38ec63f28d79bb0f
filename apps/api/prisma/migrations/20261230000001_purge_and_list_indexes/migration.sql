-- The hourly purge of finished reminders takes them by age, 10,000 a statement: without an index each statement read the
-- whole table (some 14 million rows at production size), the last, short one to the end.
CREATE INDEX "notification_job_finished_idx" ON "notification_job" ("updated_at")
    WHERE "status" IN ('sent', 'not_delivered', 'failed', 'abandoned', 'cancelled');

-- `allow-list list` reads the list in pages ordered by (created_at, id): each page starts on the index instead of
-- sorting the whole list.
CREATE INDEX "referral_allow_list_created_idx" ON "referral_allow_list" ("created_at", "id");
