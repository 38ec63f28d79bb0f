import type { MintRecord } from "../../lib/chain";
import type { ChainService } from "../../lib/services";

export const MINT_POLL_INTERVAL_MS = 1500;
export const MINT_CONFIRM_TIMEOUT_MS = 180_000;

export class MintNotConfirmedError extends Error {
  override readonly name = "MintNotConfirmedError";
}

/**
 * A mint is confirmed when the human's mint count (per 3.0 nullifier hash or 4.0 session) on chain goes past the
 * count before it was sent; a move when the 3.0 record says it moved. This works the same for World App (which
 * answers with a user operation hash) and for a plain transaction.
 */
export async function waitForMint(
  chain: ChainService,
  record: MintRecord,
  mintsBefore: bigint | "moved",
  { intervalMs = MINT_POLL_INTERVAL_MS, timeoutMs = MINT_CONFIRM_TIMEOUT_MS } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A failed read is retried until the deadline.
    const data = await chain.readMintData(record).catch(() => null);
    if (data && (mintsBefore === "moved" ? data.movedToWorldId4 === true : data.numOfMints > mintsBefore)) return;
    if (Date.now() + intervalMs > deadline) throw new MintNotConfirmedError("The mint was not seen on chain in time");
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
