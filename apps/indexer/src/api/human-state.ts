import { db } from "ponder:api";
import { human, worldIdSession } from "ponder:schema";
import { eq } from "ponder";
import type { Hex } from "viem";
import type { StreakAtMint } from "../lib/streak";

/** A human's state as of their latest mint. */
export interface HumanState extends StreakAtMint {
  numOfMints: number;
  firstMintedAt: number;
  lastReceiver: Hex;
}

/**
 * The state of a human (`nullifierHash`: 0x + 64 lower-case hex digits) as of their latest mint, or null when they
 * never minted. A World ID 4.0 human's is on their session from the enrolment on (a human who moved took theirs
 * there; the handlers keep it there so that a session mint reads only its session row, ponder.schema.ts); a 3.0
 * human's is their `human` row. Both are read at once: one index lookup each.
 */
export async function humanState(nullifierHash: Hex): Promise<HumanState | null> {
  const [[session], [row]] = await Promise.all([
    db.select().from(worldIdSession).where(eq(worldIdSession.human, nullifierHash)).limit(1),
    db.select().from(human).where(eq(human.nullifierHash, BigInt(nullifierHash))).limit(1),
  ]);
  if (!session) return row ?? null;
  const { numOfMints, firstMintedAt, lastMintedAt, currentStreak, longestStreak, lastReceiver } = session;
  if (firstMintedAt === null || lastMintedAt === null || lastReceiver === null) return null;
  return { numOfMints, firstMintedAt, lastMintedAt, currentStreak, longestStreak, lastReceiver };
}
