import { useCallback, useRef, useState } from "react";
import type { Address } from "viem";
import type { ClaimableSignature } from "../../lib/api";
import { useServices } from "../../lib/services";
import { toWorldAppError } from "../../lib/world-app/errors";
import { useRefreshFirstEarningsPage } from "./use-referral-earnings";
import { waitForVoucherClaim } from "./wait-for-voucher";

/** Spec sections 4 and 9: earnings refetched 500 ms after a successful claim; the claiming flag clears 1 s after. */
export const EARNINGS_REFETCH_DELAY_MS = 500;
export const CLAIMING_FLAG_RESET_MS = 1000;

/** How a reward claim is tracked: 'claim' for the referee's own reward, 'referral' for an invite's reward. */
export type RewardClaimType = "claim" | "referral";

export interface RewardClaimOutcome {
  type: RewardClaimType;
  claimable: ClaimableSignature;
}

/** A voucher's identity: its nonce (one voucher per nonce). */
export const voucherKey = (claimable: ClaimableSignature) => claimable.message.nonce;

/**
 * Referral reward claims: preview on chain (a voucher used already, say on another device, shows as claimed and
 * costs no transaction), send `ReferralClaim.claim(voucher, signature)` through the wallet, await it on chain.
 * Failures are silent (no transaction id, no receipt, a refusal): the entry keeps its Claim button.
 */
export function useRewardClaim(address: Address | null, onClaimed: (outcome: RewardClaimOutcome) => void) {
  const { chain, wallet, monitoring } = useServices();
  const refreshFirstPage = useRefreshFirstEarningsPage(address);
  const refetchEarnings = useCallback(() => refreshFirstPage({ bypassCache: true }), [refreshFirstPage]);
  const [claimingKey, setClaimingKey] = useState<string | null>(null);
  const [claimedOnChain, setClaimedOnChain] = useState<ReadonlySet<string>>(() => new Set());
  const busy = useRef(false);

  const claim = useCallback(
    async (claimable: ClaimableSignature, type: RewardClaimType) => {
      if (busy.current) return;
      busy.current = true;
      const key = voucherKey(claimable);
      const markClaimed = () => setClaimedOnChain((current) => new Set(current).add(key));
      setClaimingKey(key);
      monitoring.event("referral_claim_started", { claimType: type });
      try {
        const preview = await chain.previewVoucherClaim(claimable);
        if (preview.wasClaimed) {
          markClaimed();
          window.setTimeout(refetchEarnings, EARNINGS_REFETCH_DELAY_MS);
          return;
        }
        if (!preview.validSignature) {
          monitoring.event("referral_claim_failed", { claimType: type, code: "invalid_voucher" });
          return;
        }
        const sent = await wallet.sendTransaction(await chain.buildVoucherClaimCall(claimable));
        if (!sent.id) return;
        if (!(await waitForVoucherClaim(chain, claimable))) return;
        markClaimed();
        monitoring.event("referral_claim_success", { claimType: type });
        onClaimed({ type, claimable });
        window.setTimeout(refetchEarnings, EARNINGS_REFETCH_DELAY_MS);
      } catch (error) {
        monitoring.event("referral_claim_failed", { claimType: type, code: toWorldAppError("sendTransaction", error).code });
      } finally {
        window.setTimeout(() => {
          busy.current = false;
          setClaimingKey(null);
        }, CLAIMING_FLAG_RESET_MS);
      }
    },
    [chain, wallet, monitoring, refetchEarnings, onClaimed],
  );

  return {
    claim,
    /** The voucher being claimed (its key), or null. */
    claimingKey,
    /** Vouchers seen used on chain in this visit, before the API's answer says so. */
    isClaimedOnChain: (claimable: ClaimableSignature | null) => claimable !== null && claimedOnChain.has(voucherKey(claimable)),
  };
}
