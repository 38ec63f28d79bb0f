import type { ClaimableSignature } from "../../lib/api";
import type { ChainService } from "../../lib/services";

export const VOUCHER_POLL_INTERVAL_MS = 1500;
export const VOUCHER_CONFIRM_TIMEOUT_MS = 120_000;

/**
 * The claim's receipt, read from the chain: the voucher's nonce is marked used. This works the same for World App
 * (which answers with a user operation hash, not a transaction) and the development wallet. False when it is
 * not seen in time.
 */
export async function waitForVoucherClaim(
  chain: ChainService,
  claimable: ClaimableSignature,
  { intervalMs = VOUCHER_POLL_INTERVAL_MS, timeoutMs = VOUCHER_CONFIRM_TIMEOUT_MS } = {},
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await chain.previewVoucherClaim(claimable)).wasClaimed) return true;
    } catch {
      // A failed read is retried until the deadline.
    }
    if (Date.now() + intervalMs > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
