import { Hono } from "hono";
import { db } from "ponder:api";
import { referralPayout } from "ponder:schema";
import { asc, desc, eq, inArray } from "ponder";
import { parseAddress, parseLimit, parseNonce, parseNonces } from "../../lib/request-params";
import { rowsAfterCursor } from "../chain-order";
import { followQueryOr400, valueOr400 } from "../respond";
import type { ReferralNonceResponse, ReferralNoncesResponse, ReferralPayout, ReferralPayoutsResponse } from "../types";

function present(row: typeof referralPayout.$inferSelect): ReferralPayout {
  return {
    cursor: row.eventId,
    nonce: row.nonce.toString(),
    account: row.account,
    amount: row.amount.toString(),
    submitter: row.submitter,
    blockNumber: row.blockNumber,
    timestamp: row.timestamp,
    transactionHash: row.transactionHash,
  };
}

export const referralPayouts = new Hono()
  // Every payout in chain order, a page after a cursor: the API follows them to record which vouchers were paid.
  .get("/", async (c) => {
    const query = followQueryOr400(c);
    if ("response" in query) return query.response;
    const rows = await rowsAfterCursor(referralPayout, referralPayout.eventId, query.value);
    return c.json({ payouts: rows.map(present) } satisfies ReferralPayoutsResponse);
  })
  // A page of vouchers in one request (the API's earnings read asks about every open voucher of a page at once).
  .get("/nonces", async (c) => {
    const nonces = valueOr400(c, parseNonces(c.req.query("nonces")));
    if ("response" in nonces) return nonces.response;
    const rows = await db
      .select({ nonce: referralPayout.nonce })
      .from(referralPayout)
      .where(inArray(referralPayout.nonce, nonces.value))
      .orderBy(asc(referralPayout.nonce));
    return c.json({ claimed: rows.map((row) => row.nonce.toString()) } satisfies ReferralNoncesResponse);
  })
  .get("/nonces/:nonce", async (c) => {
    const nonce = valueOr400(c, parseNonce(c.req.param("nonce")));
    if ("response" in nonce) return nonce.response;
    const [row] = await db.select().from(referralPayout).where(eq(referralPayout.nonce, nonce.value)).limit(1);
    return c.json({
      nonce: nonce.value.toString(),
      claimed: row !== undefined,
      payout: row ? present(row) : null,
    } satisfies ReferralNonceResponse);
  })
  .get("/:address", async (c) => {
    const address = valueOr400(c, parseAddress(c.req.param("address")));
    if ("response" in address) return address.response;
    const limit = valueOr400(c, parseLimit(c.req.query("limit")));
    if ("response" in limit) return limit.response;
    const rows = await db
      .select()
      .from(referralPayout)
      .where(eq(referralPayout.account, address.value))
      .orderBy(desc(referralPayout.blockNumber), desc(referralPayout.logIndex))
      .limit(limit.value);
    return c.json({ payouts: rows.map(present) } satisfies ReferralPayoutsResponse);
  });
