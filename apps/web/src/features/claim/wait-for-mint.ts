import type { MintData, MintRecord } from "../../lib/chain";
import type { ChainService } from "../../lib/services";

export const MINT_POLL_INTERVAL_MS = 1500;
export const MINT_CONFIRM_TIMEOUT_MS = 180_000;

export class MintNotConfirmedError extends Error {
  override readonly name = "MintNotConfirmedError";
}

/**
 * Waits until the human's mint record (per 3.0 nullifier hash or 4.0 session) on chain shows the transaction: a mint
 * count past the one before it was sent, or a 3.0 record marked moved. This works the same for World App (which
 * answers with a user operation hash) and for a plain transaction.
 */
export async function waitForMint(
  chain: ChainService,
  record: MintRecord,
  landed: (data: MintData) => boolean,
  { intervalMs = MINT_POLL_INTERVAL_MS, timeoutMs = MINT_CONFIRM_TIMEOUT_MS } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A failed read is retried until the deadline.
    const data = await chain.readMintData(record).catch(() => null);
    if (data && landed(data)) return;
    if (Date.now() + intervalMs > deadline) throw new MintNotConfirmedError("The mint was not seen on chain in time");
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
