import type { mint } from "ponder:schema";
import type { Claim } from "./types";

/** A mint row as the answers give it (the claims listing, and the mints followed in chain order). */
export function presentClaim(row: typeof mint.$inferSelect): Claim {
  return {
    cursor: row.id,
    transactionHash: row.transactionHash,
    blockNumber: row.blockNumber,
    logIndex: row.logIndex,
    timestamp: row.timestamp,
    receiver: row.receiver,
    nullifierHash: row.nullifierHash,
    amount: row.amount.toString(),
    numOfMints: row.numOfMints,
    streak: row.streak,
  };
}
