import type { MintRecord } from "../../lib/chain";
import type { ChainService } from "../../lib/services";

export const MINT_POLL_INTERVAL_MS = 1500;
export const MINT_CONFIRM_TIMEOUT_MS = 180_000;

export class MintNotConfirmedError extends Error {
  override readonly name = "MintNotConfirmedError";
}

/**
 * A mint is confirmed when the human's mint count (per 3.0 nullifier hash or 4.0 session) on chain goes past the count before it was sent. This works the
 * same for World App (which answers with a user operation hash) and for a plain transaction.
 */
export async function waitForMint(
  chain: ChainService,
  record: MintRecord,
  mintsBefore: bigint,
  { intervalMs = MINT_POLL_INTERVAL_MS, timeoutMs = MINT_CONFIRM_TIMEOUT_MS } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { numOfMints } = await chain.readMintData(record);
      if (numOfMints > mintsBefore) return;
    } catch {
      // A failed read is retried until the deadline.
    }
    if (Date.now() + intervalMs > deadline) throw new MintNotConfirmedError("The mint was not seen on chain in time");
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A move is confirmed when the chain marks the human's 3.0 record as moved to 4.0. */
export async function waitForMove(
  chain: ChainService,
  nullifierHash: bigint,
  { intervalMs = MINT_POLL_INTERVAL_MS, timeoutMs = MINT_CONFIRM_TIMEOUT_MS } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const moved = await chain
      .readMintData({ version: "3.0", nullifierHash })
      .then((data) => data.movedToWorldId4 === true)
      .catch(() => false);
    if (moved) return;
    if (Date.now() + intervalMs > deadline) throw new MintNotConfirmedError("The move was not seen on chain in time");
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
