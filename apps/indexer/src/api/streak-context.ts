import { db } from "ponder:api";
import { settings, stats } from "ponder:schema";
import { eq } from "ponder";
import { env } from "../env";
import { streakClock } from "../lib/streak";

/** The wait in force and the clock the streak is read with. */
export async function streakContext(): Promise<{ waitBetweenMints: number; now: number }> {
  const chainId = env.chain.id;
  const [setting] = await db.select().from(settings).where(eq(settings.chainId, chainId)).limit(1);
  const [totals] = await db.select().from(stats).where(eq(stats.chainId, chainId)).limit(1);
  return {
    waitBetweenMints: setting?.waitBetweenMints ?? 0,
    now: streakClock(Date.now() / 1000, totals?.lastEventAt),
  };
}
