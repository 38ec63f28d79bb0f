-- A wallet's World ID 4.0 enrolment or move that has not landed yet: World App discloses the uniqueness proof once
-- (then nullifier_replayed for a year), so the app keeps it here as well as on the device until the chain shows it.
-- One row per wallet; the hourly purge deletes rows whose uniqueness proof the verifier would refuse (purge_after).
CREATE TABLE "world_id_pending_enrolment" (
    "user_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "idkit_session_id" TEXT NOT NULL,
    "proofs" JSONB NOT NULL,
    "purge_after" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "world_id_pending_enrolment_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "world_id_pending_enrolment_kind_check" CHECK ("kind" IN ('enrol', 'move'))
);

CREATE INDEX "world_id_pending_enrolment_purge_after_idx" ON "world_id_pending_enrolment"("purge_after");

ALTER TABLE "world_id_pending_enrolment" ADD CONSTRAINT "world_id_pending_enrolment_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
