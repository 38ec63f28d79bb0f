-- Answers that do not grow with a user's history: the invites list is read a page at a time, the totals from
-- aggregates, and pending referrals expire (REFERRAL_PENDING_TTL).

-- The invites list in the spec's order (claimable and not claimed, then claimable and claimed, then the others;
-- newest update first in each; the id breaks ties), read by keyset: WHERE (rank, updated_at, id) < (cursor)
-- ORDER BY rank DESC, updated_at DESC, id DESC. The rank expression is the one in
-- src/services/referrals/invites-page.ts (INVITE_RANK_SQL): keep them identical, or the index is not used.
CREATE INDEX "referral_reward_invites_order_idx" ON "referral_reward" (
    "beneficiary_id",
    (CASE WHEN "payment_type" = 'claimable' AND "claimed_at" IS NULL AND "status" <> 'paid' THEN 2
          WHEN "payment_type" = 'claimable' THEN 1
          ELSE 0 END) DESC,
    "updated_at" DESC,
    "id" DESC
) WHERE "side" = 'referrer';

-- The totals (ORO earned, users referred) as one index-only aggregate per user; replaces the index on
-- beneficiary_id alone, which this one leads with.
CREATE INDEX "referral_reward_beneficiary_id_side_idx" ON "referral_reward" ("beneficiary_id", "side") INCLUDE ("amount_wei");
DROP INDEX "referral_reward_beneficiary_id_idx";

-- Pending referrals: the worker takes the least recently checked first; a user's earnings request brings
-- its own (as referrer) up to date first. Neither scans the referrals that are decided.
CREATE INDEX "referral_pending_check_idx" ON "referral" ("last_checked_at" ASC NULLS FIRST, "created_at") WHERE "status" = 'pending';
CREATE INDEX "referral_pending_referrer_idx" ON "referral" ("referrer_id", "last_checked_at" ASC NULLS FIRST) WHERE "status" = 'pending';

-- The hourly purge of expired nonces and sessions finds them by expiry instead of reading both tables whole
-- (a nonce per sign-in: millions a day at production size).
CREATE INDEX "auth_nonce_expires_at_idx" ON "auth_nonce" ("expires_at");
CREATE INDEX "session_expires_at_idx" ON "session" ("expires_at");
