import { db } from "ponder:api";
import { humanState as humanStateView } from "ponder:schema";
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
 * never minted: the `human_state` view, which reads a 4.0 human's on their session and a 3.0 human's on their
 * `human` row (ponder.schema.ts). Two primary-key lookups.
 */
export async function humanState(nullifierHash: Hex): Promise<HumanState | null> {
  const [row] = await db.select().from(humanStateView).where(eq(humanStateView.nullifierHash, BigInt(nullifierHash))).limit(1);
  if (!row) return null;
  const { numOfMints, firstMintedAt, lastMintedAt, currentStreak, longestStreak, lastReceiver } = row;
  if (firstMintedAt === null || lastMintedAt === null || lastReceiver === null) return null;
  return { numOfMints, firstMintedAt, lastMintedAt, currentStreak, longestStreak, lastReceiver };
}
