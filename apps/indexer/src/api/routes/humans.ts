import { Hono } from "hono";
import { parseNullifierHash } from "../../lib/request-params";
import { streakAt } from "../../lib/streak";
import { valueOr400 } from "../respond";
import type { HumanResponse } from "../types";
import { humanState } from "../human-state";
import { streakContext } from "../streak-context";

export const humans = new Hono().get("/:nullifierHash", async (c) => {
  const nullifierHash = valueOr400(c, parseNullifierHash(c.req.param("nullifierHash")));
  if ("response" in nullifierHash) return nullifierHash.response;

  const row = await humanState(nullifierHash.value);
  if (!row) {
    return c.json({
      nullifierHash: nullifierHash.value,
      hasMinted: false,
      numOfMints: 0,
      firstMintedAt: null,
      lastMintedAt: null,
      lastReceiver: null,
      currentStreak: 0,
      longestStreak: 0,
    } satisfies HumanResponse);
  }
  const { waitBetweenMints, now } = await streakContext();
  const streak = streakAt(row, now, waitBetweenMints);
  return c.json({
    nullifierHash: nullifierHash.value,
    hasMinted: true,
    numOfMints: row.numOfMints,
    firstMintedAt: row.firstMintedAt,
    lastMintedAt: row.lastMintedAt,
    lastReceiver: row.lastReceiver,
    currentStreak: streak.currentStreak,
    longestStreak: streak.longestStreak,
  } satisfies HumanResponse);
});
