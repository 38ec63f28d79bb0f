import { hash } from "node:crypto";
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.js";
import type { PaymentType, RewardStatus } from "../../generated/prisma/client.js";

/** How many invites one answer of GET /api/referrals/oro-earned carries at most. */
export const INVITES_PAGE_SIZE = 20;

/**
 * Where an invite sorts in the spec's order (SPEC section 2, share screen): 2 for claimable and not claimed, 1 for
 * claimable and claimed, 0 for the others; read in descending order, newest update first within each, the id
 * breaking ties. INVITE_RANK_SQL says the same in SQL and must match the index of the migration
 * 20261224000000_paged_earnings word for word (that is what lets PostgreSQL read a page by keyset).
 */
export function inviteRank(reward: { paymentType: PaymentType; claimed: boolean; status: RewardStatus }): InviteRank {
  if (reward.paymentType !== "claimable") return 0;
  return !reward.claimed && reward.status !== "paid" ? 2 : 1;
}

export const INVITE_RANK_SQL = Prisma.sql`(CASE WHEN "payment_type" = 'claimable' AND "claimed_at" IS NULL AND "status" <> 'paid' THEN 2
          WHEN "payment_type" = 'claimable' THEN 1
          ELSE 0 END)`;

export type InviteRank = 0 | 1 | 2;

/** The position after the last invite of a page: the page that follows starts strictly after it. */
export interface InvitesCursor {
  rank: InviteRank;
  updatedAt: Date;
  id: string;
}

/** The order a cursor belongs to: a cursor of another order (or of a later version of this one) is refused. */
const ORDER = "spec-v1";

/**
 * The latest update time a cursor may name: 9999-12-31T23:59:59.999Z. Later ones (JavaScript holds times up to the year
 * 275760) are written with a six-digit year that PostgreSQL refuses ("time zone displacement out of range").
 */
const LATEST_POSITION_MS = Date.UTC(9_999, 11, 31, 23, 59, 59, 999);
const REWARD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const cursorPayload = z.strictObject({
  o: z.literal(ORDER),
  /** whose list: a short digest of the user's id, so that a cursor is not replayed on another user's list */
  u: z.string().regex(/^[0-9a-f]{16}$/),
  r: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  t: z.number().int().nonnegative().max(LATEST_POSITION_MS),
  /** a reward's id: a UUID as the database makes them (a NUL or any other byte the database refuses never reaches it) */
  i: z.string().regex(REWARD_ID),
});

function ownerDigest(userId: string): string {
  return hash("sha256", `invites:${userId}`, "hex").slice(0, 16);
}

/** The opaque cursor the answer carries as nextCursor (base64url of a small JSON document). */
export function encodeInvitesCursor(userId: string, position: InvitesCursor): string {
  const payload: z.infer<typeof cursorPayload> = { o: ORDER, u: ownerDigest(userId), r: position.rank, t: position.updatedAt.getTime(), i: position.id };
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

export type CursorProblem = "malformed" | "other-user";

/** The position a cursor names, or why it cannot be used for this user's list. */
export function decodeInvitesCursor(userId: string, cursor: string): InvitesCursor | CursorProblem {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return "malformed";
  }
  const parsed = cursorPayload.safeParse(json);
  if (!parsed.success) return "malformed";
  if (parsed.data.u !== ownerDigest(userId)) return "other-user";
  return { rank: parsed.data.r, updatedAt: new Date(parsed.data.t), id: parsed.data.i };
}

/** The shape a cursor has on the wire, checked by the route's schema before it reaches the service. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,512}$/;
