import { chainClockSeconds } from "@oro/clients";
import { db, publicClients } from "ponder:api";
import { settings, stats } from "ponder:schema";
import { eq } from "ponder";
import type { PublicClient } from "viem";
import { env } from "../env";
import { streakClock } from "../lib/streak";

/** The chain's clock, asked at most once a second (a request per streak read would be wasteful). */
let chainClock: { at: number; seconds: number | undefined } = { at: 0, seconds: undefined };

/**
 * The chain's clock (`chainClockSeconds`: its next block's time). A local chain moved forward has no event to
 * index, so the newest indexed event alone would leave every streak alive after the move; and the latest block's
 * time lags by however long no block came.
 */
async function chainTime(): Promise<number | undefined> {
  if (Date.now() - chainClock.at < 1000) return chainClock.seconds;
  const client = (publicClients as Record<string, PublicClient | undefined>)[env.chain.name];
  const seconds = client ? await chainClockSeconds(client).catch(() => undefined) : undefined;
  chainClock = { at: Date.now(), seconds };
  return seconds;
}

/** The wait in force and the clock the streak is read with. */
export async function streakContext(): Promise<{ waitBetweenMints: number; now: number }> {
  const chainId = env.chain.id;
  const [[setting], [totals], blockTime] = await Promise.all([
    db.select().from(settings).where(eq(settings.chainId, chainId)).limit(1),
    db.select().from(stats).where(eq(stats.chainId, chainId)).limit(1),
    chainTime(),
  ]);
  return {
    waitBetweenMints: setting?.waitBetweenMints ?? 0,
    now: streakClock(Date.now() / 1000, Math.max(totals?.lastEventAt ?? 0, blockTime ?? 0)),
  };
}
