-- The votes of each poll option as one row, kept by triggers on poll_vote, so that GET /api/polls reads one row per
-- option whatever the number of votes. The count it replaces grouped every vote of up to 100 polls (a million votes
-- a poll with every human voting) each time a process's cache of the counts expired.
CREATE TABLE "poll_vote_totals" (
    "option_id" TEXT NOT NULL,
    "votes" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "poll_vote_totals_pkey" PRIMARY KEY ("option_id")
);
ALTER TABLE "poll_vote_totals" ADD CONSTRAINT "poll_vote_totals_option_id_fkey" FOREIGN KEY ("option_id") REFERENCES "poll_option"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Counted per statement (one upsert per option touched, however many votes), options in id order so that concurrent
-- statements lock their rows in the same order.
CREATE FUNCTION "poll_vote_totals_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "poll_vote_totals" ("option_id", "votes")
  SELECT "option_id", count(*) FROM "changed" GROUP BY "option_id" ORDER BY "option_id"
  ON CONFLICT ("option_id") DO UPDATE SET "votes" = "poll_vote_totals"."votes" + EXCLUDED."votes";
  RETURN NULL;
END $$;

CREATE FUNCTION "poll_vote_totals_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An option deleted with its votes has no row left to update (the cascade removed it): nothing to do for it.
  UPDATE "poll_vote_totals" AS t SET "votes" = t."votes" - gone."votes"
  FROM (SELECT "option_id", count(*) AS "votes" FROM "changed" GROUP BY "option_id" ORDER BY "option_id") AS gone
  WHERE t."option_id" = gone."option_id";
  RETURN NULL;
END $$;

-- A changed vote (the same human voting again, from any wallet) moves from its old option to its new one. Both sides
-- are one statement, options in id order: two votes moving opposite ways at once cannot deadlock.
CREATE FUNCTION "poll_vote_totals_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "poll_vote_totals" ("option_id", "votes")
  SELECT "option_id", sum("change") FROM (
    SELECT "option_id", 1 AS "change" FROM "after"
    UNION ALL
    SELECT "option_id", -1 FROM "before"
  ) AS moved GROUP BY "option_id" HAVING sum("change") <> 0 ORDER BY "option_id"
  ON CONFLICT ("option_id") DO UPDATE SET "votes" = "poll_vote_totals"."votes" + EXCLUDED."votes";
  RETURN NULL;
END $$;

CREATE TRIGGER "poll_vote_totals_insert" AFTER INSERT ON "poll_vote"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "poll_vote_totals_add"();
CREATE TRIGGER "poll_vote_totals_delete" AFTER DELETE ON "poll_vote"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "poll_vote_totals_remove"();
CREATE TRIGGER "poll_vote_totals_update" AFTER UPDATE ON "poll_vote"
  REFERENCING OLD TABLE AS "before" NEW TABLE AS "after" FOR EACH STATEMENT EXECUTE FUNCTION "poll_vote_totals_move"();

-- The votes there already (after the triggers: their lock holds back votes cast meanwhile until this commits).
INSERT INTO "poll_vote_totals" ("option_id", "votes")
SELECT "option_id", count(*) FROM "poll_vote" GROUP BY "option_id";
