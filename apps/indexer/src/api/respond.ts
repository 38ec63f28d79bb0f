import type { Context } from "hono";
import { FOLLOW_LIMIT, parseCursor, parseLimit, type Parsed } from "../lib/request-params";
import type { ChainOrderPage } from "./chain-order";
import type { ErrorResponse } from "./types";

/** The value of a parsed parameter, or a 400 answer carrying the reason. */
export function valueOr400<T>(c: Context, parsed: Parsed<T>): { value: T } | { response: Response } {
  if (parsed.ok) return { value: parsed.value };
  return { response: c.json({ error: parsed.error } satisfies ErrorResponse, 400) };
}

/** `after` and `limit` of a list in chain order (GET /mints, GET /referral-payouts), or the 400 naming the bad one. */
export function followQueryOr400(c: Context): { value: ChainOrderPage } | { response: Response } {
  const after = valueOr400(c, parseCursor(c.req.query("after")));
  if ("response" in after) return after;
  const limit = valueOr400(c, parseLimit(c.req.query("limit"), FOLLOW_LIMIT));
  if ("response" in limit) return limit;
  return { value: { after: after.value, limit: limit.value } };
}
