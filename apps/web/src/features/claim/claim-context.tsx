import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { env } from "../../env";
import { mintRecordKey, mintRecordOf } from "../../lib/chain";
import { backoffRetry } from "../../lib/query-client";
import { useServices } from "../../lib/services";
import { playClaimSound } from "../../lib/sound";
import { isUserRejection, toWorldAppError } from "../../lib/world-app/errors";
import type { ClaimRefusal } from "../../lib/claim-refusal";
import type { ContractCall } from "../../lib/world-app/send-transaction";
import type { VerificationResult } from "../../lib/world-app/verify";
import { balanceKey } from "../balance";
import { useSession, type SignedInUser } from "../session";
import { forgetVerification, storeWorldId4, useVerification, useVerify } from "../verification";
import { useAfterClaimTimeline } from "../after-claim";
import { claimViewOf, type ClaimPhase, type ClaimView } from "./claim-view";
import { useModalQueue } from "./modal-queue";
import { nextMintKey, useClaimReadiness, type ClaimReadiness } from "./use-claim-readiness";
import { waitForMint } from "./wait-for-mint";

export interface ClaimContextValue {
  view: ClaimView;
  phase: ClaimPhase;
  user: SignedInUser | null;
  verification: VerificationResult | null;
  /** The owner closed World ID 3.0 (a 3.0 human can no longer move, only enrol). */
  worldId3Closed: boolean;
  readiness: ClaimReadiness;
  /** Signed in and verified, so the slider can mint (a 4.0 claim asks World App for its proof when sent). */
  canMint: boolean;
  claim: () => Promise<void>;
  verify: () => void;
  verifying: boolean;
  /** World App's code for the last failed verification (the not-verified modal explains some). */
  verifyFailure: string | null;
  claimedWei: bigint | null;
  /** When the last claim succeeded (ms), for the after-claim timeline. */
  successAt: number | null;
  chainTrouble: boolean;
  /** Why the contract refused the last claim, when it named a reason (shown instead of the network notice). */
  claimRefusal: ClaimRefusal | null;
  /** Counts failed claims; the slider goes back to the start on each. */
  failedClaims: number;
  showEmailForm: boolean;
  dismissEmailForm: () => void;
  modals: ReturnType<typeof useModalQueue>;
}

const ClaimContext = createContext<ClaimContextValue | null>(null);

/** The success screen stays at least this long, whatever the (possibly not yet refreshed) readiness says. */
const SUCCESS_MIN_VISIBLE_MS = 60_000;

export function useClaim(): ClaimContextValue {
  const value = useContext(ClaimContext);
  if (!value) throw new Error("useClaim needs a ClaimProvider");
  return value;
}

export function ClaimProvider({ children }: { children: ReactNode }) {
  const { api, chain, wallet, monitoring } = useServices();
  const queryClient = useQueryClient();
  const user = useSession();
  const address = user?.address ?? null;
  const stored = useVerification(address);
  // Once the owner closed World ID 3.0 a 3.0 proof mints nothing: the human verifies again, which enrols them.
  const worldIdSettings = useQuery({
    queryKey: ["world-id-settings", env.chainId],
    queryFn: () => chain.readWorldIdSettings(),
    enabled: stored?.version === "3.0",
    staleTime: 5 * 60_000,
  });
  const worldId3Closed = worldIdSettings.data?.worldId3Closed === true;
  const verification = stored?.version === "3.0" && worldId3Closed ? null : stored;
  const readiness = useClaimReadiness();
  const modals = useModalQueue();
  const [phase, setPhase] = useState<ClaimPhase>("idle");
  const [successAt, setSuccessAt] = useState<number | null>(null);
  const [claimedWei, setClaimedWei] = useState<bigint | null>(null);
  const [claimFailed, setClaimFailed] = useState(false);
  const [claimRefusal, setClaimRefusal] = useState<ClaimRefusal | null>(null);
  const [failedClaims, setFailedClaims] = useState(0);
  const claiming = useRef(false);

  const verifyMutation = useVerify(address, () => modals.open("verifyInfo"));
  const verifyFailure = verifyMutation.error ? toWorldAppError("verify", verifyMutation.error).code : null;
  const amountPerMint = useQuery({
    queryKey: ["amount-per-mint", env.chainId],
    queryFn: () => chain.readAmountPerMint(),
    enabled: verification !== null,
    ...backoffRetry,
  });

  // A 3.0 mint is encoded ahead; a 4.0 call is built when sent (a claim asks World App for its session proof then).
  const mintCall3 = useMemo((): ContractCall | null => {
    if (!address || verification?.version !== "3.0") return null;
    try {
      return chain.buildMintCall(verification, address);
    } catch {
      return null;
    }
  }, [address, verification, chain]);
  const canMint = verification?.version === "4.0" || mintCall3 !== null;

  const claim = useCallback(async () => {
    if (!address || !verification || !canMint || claiming.current) return;
    claiming.current = true;
    setPhase("requested");
    wallet.haptic("slide-complete");
    playClaimSound();
    let call = mintCall3;
    try {
      const record = mintRecordOf(verification);
      const before = await chain.readMintData(record);
      if (verification.version === "4.0") {
        let proof;
        if (!verification.enrolment) {
          const { chainNow } = await chain.readWorldIdSettings();
          proof = await wallet.proveSession(verification.idkitSessionId, address, (kind) => api.getWorldIdRequest(address, kind), chainNow);
        }
        call = await chain.buildWorldId4Call(verification, address, proof);
      }
      if (!call) throw new Error("no mint call");
      await wallet.sendTransaction(call);
      setPhase("confirming");
      await waitForMint(chain, record, (data) => data.numOfMints > before.numOfMints);
      // The enrolment landed: from now on each claim proves the session.
      if (verification.version === "4.0" && verification.enrolment) storeWorldId4(address, { ...verification, enrolment: null });
      setClaimedWei(amountPerMint.data ?? (await chain.readAmountPerMint().catch(() => null)));
      setClaimFailed(false);
      setClaimRefusal(null);
      wallet.haptic("success");
      setPhase("success");
      setSuccessAt(Date.now());
      void queryClient.invalidateQueries({ queryKey: balanceKey(address) });
      void queryClient.invalidateQueries({ queryKey: nextMintKey(address, mintRecordKey(record)) });
    } catch (error) {
      // The slider and the error reset, so the user can try again; only a refusal in the wallet is not trouble.
      setPhase("idle");
      setFailedClaims((count) => count + 1);
      const rejected = isUserRejection(error);
      if (!rejected) wallet.haptic("error");
      // A refusal the contract names gets its own message; anything else is the network's trouble.
      const refusal = rejected || !call ? null : await chain.explainRefusal(call, address).catch(() => null);
      // Only a session claim makes a fresh proof on each slide; a refused 3.0 proof (its root expired) or enrolment
      // (too old) is refused again every time, so the person verifies again.
      const freshProofEachTime = verification.version === "4.0" && verification.enrolment === null;
      const verifyAgain = refusal === "verifyAgain" || (refusal === "proofRefused" && !freshProofEachTime);
      if (verifyAgain) forgetVerification();
      setClaimRefusal(verifyAgain ? "verifyAgain" : refusal);
      // Paused claims are trouble with claims too: the banner says it is being worked on.
      setClaimFailed(!rejected && (refusal === null || refusal === "paused"));
      monitoring.event("claim_failed", { code: toWorldAppError("mint", error).code, ...(refusal ? { refusal } : {}) });
      readiness.refresh();
    } finally {
      claiming.current = false;
    }
  }, [address, verification, canMint, mintCall3, chain, wallet, api, amountPerMint.data, queryClient, monitoring, readiness]);

  // A success screen left open until the next claim opens goes back to the slider.
  useEffect(() => {
    if (phase === "success" && successAt !== null && readiness.ready && Date.now() - successAt > SUCCESS_MIN_VISIBLE_MS) {
      setPhase("idle");
    }
  }, [phase, successAt, readiness.ready]);

  const afterClaim = useAfterClaimTimeline(successAt, address, modals.open);

  const value: ClaimContextValue = {
    view: claimViewOf({ signedIn: user !== null, verified: verification !== null, ready: readiness.ready, phase }),
    phase,
    user,
    verification,
    readiness,
    canMint,
    worldId3Closed,
    verifyFailure,
    claim,
    verify: () => {
      // A new verification answers the 'verify again' refusal.
      setClaimRefusal(null);
      verifyMutation.mutate();
    },
    verifying: verifyMutation.isPending,
    claimedWei,
    successAt,
    chainTrouble: claimFailed || readiness.failed,
    claimRefusal,
    failedClaims,
    showEmailForm: afterClaim.showEmailForm,
    dismissEmailForm: afterClaim.dismissEmailForm,
    modals,
  };
  return <ClaimContext.Provider value={value}>{children}</ClaimContext.Provider>;
}
