import { Hono } from "hono";
import { db } from "ponder:api";
import { account, mint } from "ponder:schema";
import { asc, desc, eq } from "ponder";
import { parseAddress, parseLimit, parseOrder } from "../../lib/request-params";
import { streakAt } from "../../lib/streak";
import { humanState } from "../human-state";
import { streakContext } from "../streak-context";
import { valueOr400 } from "../respond";
import { presentClaim } from "../claims";
import type { ClaimsResponse, StreakResponse, WalletHumansResponse } from "../types";

export const streaks = new Hono()
  .get("/:address", async (c) => {
    const address = valueOr400(c, parseAddress(c.req.param("address")));
    if ("response" in address) return address.response;

    const [holder] = await db.select().from(account).where(eq(account.address, address.value)).limit(1);
    const nullifierHash = holder?.firstMintNullifierHash ?? null;
    const shown = nullifierHash ? await humanState(nullifierHash) : null;
    if (!shown) {
      return c.json({
        address: address.value,
        nullifierHash: null,
        currentStreak: 0,
        longestStreak: 0,
        numOfMints: 0,
        lastMintedAt: null,
        nextMintAt: null,
        streakExpiresAt: null,
      } satisfies StreakResponse);
    }
    const { waitBetweenMints, now } = await streakContext();
    const streak = streakAt(shown, now, waitBetweenMints);
    return c.json({
      address: address.value,
      nullifierHash,
      numOfMints: shown.numOfMints,
      ...streak,
    } satisfies StreakResponse);
  })
  .get("/:address/claims", async (c) => {
    const address = valueOr400(c, parseAddress(c.req.param("address")));
    if ("response" in address) return address.response;
    const limit = valueOr400(c, parseLimit(c.req.query("limit")));
    if ("response" in limit) return limit.response;
    const order = valueOr400(c, parseOrder(c.req.query("order")));
    if ("response" in order) return order.response;

    // The (receiver, blockNumber, logIndex) index serves both directions.
    const direction = order.value === "oldest" ? asc : desc;
    const rows = await db
      .select()
      .from(mint)
      .where(eq(mint.receiver, address.value))
      .orderBy(direction(mint.blockNumber), direction(mint.logIndex))
      .limit(limit.value);
    const claims = rows.map(presentClaim);
    return c.json({ claims } satisfies ClaimsResponse);
  })
  .get("/:address/humans", async (c) => {
    const address = valueOr400(c, parseAddress(c.req.param("address")));
    if ("response" in address) return address.response;
    // Every human, however many mints came since: the receiver index narrows the scan to this wallet's mints.
    const rows = await db.selectDistinct({ nullifierHash: mint.nullifierHash }).from(mint).where(eq(mint.receiver, address.value));
    const humans = rows.map((row) => row.nullifierHash).sort();
    return c.json({ humans } satisfies WalletHumansResponse);
  });
