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
import type { PendingEnrolment, VerificationResult } from "../../lib/world-app/verify";
import type { WorldIdRequestKind } from "@oro/clients";
import { useStored } from "../../lib/storage";
import { balanceKey } from "../balance";
import { useSession, type SignedInUser } from "../session";
import { forgetPending, forgetVerification, pendingUsable, settlePending, usePendingEnrolment, usePendingEnrolmentSync, useVerification, useVerify } from "../verification";
import { useAfterClaimTimeline } from "../after-claim";
import { amountPerMintQuery } from "./amount-per-mint";
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
  /** A move to World ID 4.0 started on this device that has not landed (the move card finishes it). */
  pendingMove: PendingEnrolment | null;
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

/** A pending enrolment whose uniqueness proof World's verifier no longer takes (5 h past its expiry floor). */
class PendingEnrolmentExpiredError extends Error {
  override readonly name = "PendingEnrolmentExpiredError";
}

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
  const stored3 = useStored("verification");
  const pendingEnrolment = usePendingEnrolment(address);
  // Whether the owner closed World ID 3.0: a 3.0 proof then mints nothing (the human verifies again, which enrols
  // them) and a pending move enrols instead. Read only for a human who has a 3.0 proof or a pending move.
  const worldIdSettings = useQuery({
    queryKey: ["world-id-settings", env.chainId],
    queryFn: () => chain.readWorldIdSettings(),
    enabled: (address !== null && stored3 !== null && stored3.address.toLowerCase() === address.toLowerCase()) || pendingEnrolment?.kind === "move",
    staleTime: 5 * 60_000,
  });
  const worldId3Closed = worldIdSettings.data?.worldId3Closed === true;
  const verification = useVerification(address, worldId3Closed);
  usePendingEnrolmentSync(address);
  const readiness = useClaimReadiness(verification);
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
    ...amountPerMintQuery(chain),
    enabled: verification !== null,
    ...backoffRetry,
  });

  // A 3.0 mint is encoded ahead; a 4.0 call is built when sent (World App makes its session proof then).
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
    const pending = verification.version === "4.0" ? verification.pending : null;
    const record = mintRecordOf(verification);
    const succeeded = async () => {
      setClaimedWei(amountPerMint.data ?? (await chain.readAmountPerMint().catch(() => null)));
      setClaimFailed(false);
      setClaimRefusal(null);
      wallet.haptic("success");
      setPhase("success");
      setSuccessAt(Date.now());
      void queryClient.invalidateQueries({ queryKey: balanceKey(address) });
      void queryClient.invalidateQueries({ queryKey: nextMintKey(address, mintRecordKey(record)) });
    };
    let call = mintCall3;
    try {
      const before = await chain.readMintData(record);
      if (verification.version === "4.0") {
        const { chainNow } = await chain.readWorldIdSettings();
        const sign = (kind: WorldIdRequestKind) => api.getWorldIdRequest(address, kind);
        if (pending) {
          // The enrolment is the first claim: its session proof, asked for now, completes the kept proofs.
          if (!pendingUsable(pending, chainNow)) throw new PendingEnrolmentExpiredError();
          call = await chain.buildEnrolmentCall(pending, address, await wallet.proveEnrolment(pending, address, false, chainNow, sign));
        } else {
          // A later expiry floor than the session's last proof (its replay record), and not older than now.
          const last = before.lastExpiresAtMin ?? 0n;
          const expiresAtMin = last >= BigInt(chainNow) ? last + 1n : BigInt(chainNow);
          call = await chain.buildSessionClaimCall(address, await wallet.proveClaim(verification.idkitSessionId, address, expiresAtMin, sign));
        }
      }
      if (!call) throw new Error("no mint call");
      await wallet.sendTransaction(call);
      setPhase("confirming");
      await waitForMint(chain, record, (data) => data.numOfMints > before.numOfMints);
      // The enrolment landed: from now on each claim proves the session; the kept proofs go.
      if (pending) await settlePending({ api, chain }, address, pending).catch(() => undefined);
      await succeeded();
    } catch (error) {
      // A pending enrolment is what the chain says, whatever the transaction's own fate: a copy of it sent by someone
      // else that landed did what the person asked.
      const outcome = pending ? await settlePending({ api, chain }, address, pending).catch(() => "pending" as const) : null;
      if (outcome === "landed") {
        await succeeded();
        return;
      }
      // The slider and the error reset, so the user can try again; only a refusal in the wallet is not trouble.
      setPhase("idle");
      setFailedClaims((count) => count + 1);
      const rejected = isUserRejection(error);
      if (!rejected) wallet.haptic("error");
      // A refusal the contract names gets its own message; anything else is the network's trouble.
      const refusal: ClaimRefusal | null =
        outcome === "expired" || error instanceof PendingEnrolmentExpiredError
          ? "verifyAgain"
          : rejected || !call
            ? null
            : await chain.explainRefusal(call, address).catch(() => null);
      if (pending) {
        // Kept proofs go only when they can never land: World App would not disclose them again.
        if (refusal === "alreadyJoined") await forgetPending(api, address);
      } else {
        // Only a session claim makes a fresh proof on each slide; a refused 3.0 proof (its root expired) is refused
        // again every time, so the person verifies again.
        const freshProofEachTime = verification.version === "4.0";
        if (refusal === "verifyAgain" || (refusal === "proofRefused" && !freshProofEachTime)) forgetVerification();
      }
      const shown = refusal === "proofRefused" && verification.version === "3.0" ? "verifyAgain" : refusal;
      setClaimRefusal(shown);
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
    pendingMove: pendingEnrolment?.kind === "move" && !worldId3Closed ? pendingEnrolment : null,
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
