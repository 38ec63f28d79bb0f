import { Hono } from "hono";
import { db } from "ponder:api";
import { mint } from "ponder:schema";
import { asc, gt } from "ponder";
import { FOLLOW_LIMIT, parseCursor, parseLimit } from "../../lib/request-params";
import { presentClaim } from "../claims";
import { valueOr400 } from "../respond";
import type { MintsResponse } from "../types";

export const mints = new Hono()
  // Every mint in chain order, a page after a cursor: the API follows them (a mint row's id is its event id, so the
  // primary key is the order and no index of its own is needed).
  .get("/", async (c) => {
    const after = valueOr400(c, parseCursor(c.req.query("after")));
    if ("response" in after) return after.response;
    const limit = valueOr400(c, parseLimit(c.req.query("limit"), FOLLOW_LIMIT));
    if ("response" in limit) return limit.response;
    const rows = await db
      .select()
      .from(mint)
      .where(after.value === null ? undefined : gt(mint.id, after.value))
      .orderBy(asc(mint.id))
      .limit(limit.value);
    return c.json({ mints: rows.map(presentClaim) } satisfies MintsResponse);
  });
