import { Hono } from "hono";
import { db } from "ponder:api";
import { settings, stats } from "ponder:schema";
import { eq } from "ponder";
import { env } from "../../env";
import type { StatsResponse } from "../types";

export const statsRoutes = new Hono().get("/", async (c) => {
  const chainId = env.chain.id;
  const [totals] = await db.select().from(stats).where(eq(stats.chainId, chainId)).limit(1);
  const [setting] = await db.select().from(settings).where(eq(settings.chainId, chainId)).limit(1);
  return c.json({
    chainId,
    totalSupply: (totals?.totalSupply ?? 0n).toString(),
    holders: totals?.holders ?? 0,
    humans: totals?.humans ?? 0,
    mints: totals?.mints ?? 0,
    amountPerMint: (setting?.amountPerMint ?? 0n).toString(),
    waitBetweenMints: setting?.waitBetweenMints ?? 0,
    killed: setting?.killed ?? false,
    referralPayouts: totals?.referralPayouts ?? 0,
    referralPaidOut: (totals?.referralPaidOut ?? 0n).toString(),
    lastEventAt: totals?.lastEventAt ?? null,
  } satisfies StatsResponse);
});
