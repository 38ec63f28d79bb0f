import { Hono } from "hono";
import { mint } from "ponder:schema";
import { rowsAfterCursor } from "../chain-order";
import { presentClaim } from "../claims";
import { followQueryOr400 } from "../respond";
import type { MintsResponse } from "../types";

export const mints = new Hono()
  // Every mint in chain order, a page after a cursor: the API follows them (a mint row's id is its event id, so the
  // primary key is the order and no index of its own is needed).
  .get("/", async (c) => {
    const query = followQueryOr400(c);
    if ("response" in query) return query.response;
    const rows = await rowsAfterCursor(mint, mint.id, query.value);
    return c.json({ mints: rows.map(presentClaim) } satisfies MintsResponse);
  });
