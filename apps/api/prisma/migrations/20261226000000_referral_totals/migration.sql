-- The earnings totals (ORO earned on both sides, invites that paid) as one row per user, kept by triggers on
-- referral_reward, so that GET /api/referrals/oro-earned reads one row whatever the user's history. The aggregate
-- over referral_reward_beneficiary_id_side_idx that it replaces read every reward of the user: 10 ms for a referrer
-- with 50,000 invites (EXPLAIN ANALYZE, 2,000,000 users), on every uncached first page.
CREATE TABLE "referral_totals" (
    "user_id" TEXT NOT NULL,
    -- Every reward of the user, both sides, whatever its status (what the share screen calls ORO earned).
    "earned_wei" DECIMAL(78,0) NOT NULL DEFAULT 0,
    -- Rewards on the referrer's side: one per invite that paid.
    "invites_paid" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "referral_totals_pkey" PRIMARY KEY ("user_id")
);
ALTER TABLE "referral_totals" ADD CONSTRAINT "referral_totals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Inserts and deletes are counted per statement (one upsert per user touched, however many rows: the seeds and the
-- cascades of a user's deletion stay one statement each), users in id order so that concurrent statements lock their
-- rows in the same order.
CREATE FUNCTION "referral_totals_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "referral_totals" ("user_id", "earned_wei", "invites_paid")
  SELECT "beneficiary_id", sum("amount_wei"), count(*) FILTER (WHERE "side" = 'referrer')
    FROM "changed" GROUP BY "beneficiary_id" ORDER BY "beneficiary_id"
  ON CONFLICT ("user_id") DO UPDATE SET
    "earned_wei" = "referral_totals"."earned_wei" + EXCLUDED."earned_wei",
    "invites_paid" = "referral_totals"."invites_paid" + EXCLUDED."invites_paid";
  RETURN NULL;
END $$;

CREATE FUNCTION "referral_totals_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A user deleted with their rewards has no row left to update (the cascade removed it): nothing to do for them.
  UPDATE "referral_totals" AS t SET
    "earned_wei" = t."earned_wei" - gone."earned_wei",
    "invites_paid" = t."invites_paid" - gone."invites_paid"
  FROM (SELECT "beneficiary_id", sum("amount_wei") AS "earned_wei", count(*) FILTER (WHERE "side" = 'referrer') AS "invites_paid"
          FROM "changed" GROUP BY "beneficiary_id" ORDER BY "beneficiary_id") AS gone
  WHERE t."user_id" = gone."beneficiary_id";
  RETURN NULL;
END $$;

CREATE TRIGGER "referral_totals_insert" AFTER INSERT ON "referral_reward"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "referral_totals_add"();
CREATE TRIGGER "referral_totals_delete" AFTER DELETE ON "referral_reward"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "referral_totals_remove"();

-- Nothing in the API moves a reward to another user, side or amount; should anything ever, the totals follow it.
-- (A column list cannot go with transition tables: this one is per row, and fires only when one of these is set.)
CREATE FUNCTION "referral_totals_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."beneficiary_id" IS NOT DISTINCT FROM NEW."beneficiary_id" AND OLD."side" = NEW."side" AND OLD."amount_wei" = NEW."amount_wei" THEN
    RETURN NULL;
  END IF;
  UPDATE "referral_totals" SET
    "earned_wei" = "earned_wei" - OLD."amount_wei",
    "invites_paid" = "invites_paid" - (OLD."side" = 'referrer')::int
  WHERE "user_id" = OLD."beneficiary_id";
  INSERT INTO "referral_totals" ("user_id", "earned_wei", "invites_paid")
  VALUES (NEW."beneficiary_id", NEW."amount_wei", (NEW."side" = 'referrer')::int)
  ON CONFLICT ("user_id") DO UPDATE SET
    "earned_wei" = "referral_totals"."earned_wei" + EXCLUDED."earned_wei",
    "invites_paid" = "referral_totals"."invites_paid" + EXCLUDED."invites_paid";
  RETURN NULL;
END $$;
CREATE TRIGGER "referral_totals_update" AFTER UPDATE OF "beneficiary_id", "side", "amount_wei" ON "referral_reward"
  FOR EACH ROW EXECUTE FUNCTION "referral_totals_move"();

-- The rewards there already.
INSERT INTO "referral_totals" ("user_id", "earned_wei", "invites_paid")
SELECT "beneficiary_id", sum("amount_wei"), count(*) FILTER (WHERE "side" = 'referrer')
  FROM "referral_reward" GROUP BY "beneficiary_id";
