import { sessionIdOf, type WorldIdRequestKind } from "@oro/clients";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useScreenStrings } from "../../i18n";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import type { Address } from "viem";
import { PendingButton } from "../../components/PendingButton";
import { useServices } from "../../lib/services";
import { isUserRejection } from "../../lib/world-app/errors";
import type { ContractCall } from "../../lib/world-app/send-transaction";
import type { PendingEnrolment } from "../../lib/world-app/verify";
import { forgetPending, keepPending, pendingUsable, settlePending } from "../verification";
import { waitForMint } from "./wait-for-mint";

/** Why a move ended without landing: it can be finished later, or it can never land (the human moved already). */
class MoveNotLanded extends Error {
  override readonly name = "MoveNotLanded";
  constructor(readonly final: boolean) {
    super(final ? "this move can never land" : "the move did not land");
  }
}

/**
 * Invites a 3.0 human whose World App makes 4.0 proofs to move, once: World App stops making 3.0 proofs on
 * 1 April 2027. Three prompts (a new session, the enrolment proof, a 3.0 proof choosing that session), kept at once,
 * then the session proof that completes them and one transaction that carries their last claim time and count to the
 * session and closes their 3.0 path. A move that did not land (rejected, failed, the app closed) is finished later
 * from what was kept: World App discloses the enrolment proof once.
 */
export function MoveToWorldId4Card({ address, pending }: { address: Address; pending: PendingEnrolment | null }) {
  // Its words come with the on-demand screens' strings, not with the first load.
  const { t } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const wordsReady = useScreenStrings();
  const { api, chain, wallet, monitoring } = useServices();
  const queryClient = useQueryClient();
  const move = useMutation({
    mutationFn: async () => {
      const { chainNow } = await chain.readWorldIdSettings();
      const sign = (kind: WorldIdRequestKind) => api.getWorldIdRequest(address, kind);
      // A kept move whose enrolment proof is too old can never land; a new one is asked for.
      const kept = pending && pendingUsable(pending, chainNow) ? pending : null;
      if (pending && !kept) await forgetPending(api, address);
      const proofs = await wallet.moveProofs(address, sign, chainNow, (next) => keepPending(api, address, next), kept);
      const record = { version: "4.0" as const, sessionId: sessionIdOf(proofs.idkitSessionId) };
      let call: ContractCall | null = null;
      try {
        call = await chain.buildMoveCall(proofs, address, await wallet.proveEnrolment(proofs, address, true, chainNow, sign));
        await wallet.sendTransaction(call);
        await waitForMint(chain, record, (data) => (data.lastExpiresAtMin ?? 0n) > 0n);
      } catch (error) {
        // The chain decides, not the transaction: a copy of it that landed did what the person asked.
        const outcome = await settlePending({ api, chain }, address, proofs).catch(() => "pending" as const);
        if (outcome === "landed") return;
        if (isUserRejection(error) || !call) throw error;
        const refusal = await chain.explainRefusal(call, address).catch(() => null);
        // Moved already (from another wallet or device): this move can never land.
        const final = refusal === "verifyAgain" || refusal === "alreadyJoined";
        if (final) await forgetPending(api, address);
        throw new MoveNotLanded(final);
      }
      await settlePending({ api, chain }, address, proofs);
      monitoring.event("moved_to_world_id_4");
      void queryClient.invalidateQueries({ queryKey: ["next-mint-at"] });
    },
  });
  const failed = move.isError && !isUserRejection(move.error);
  if (!wordsReady) return null;
  return (
    <section className="card move-card" aria-labelledby="move-card-title">
      <h2 id="move-card-title" className="move-card__title">
        {t("move.title")}
      </h2>
      <p className="move-card__body">{pending ? t("move.pendingBody") : t("move.body")}</p>
      {failed && (
        <p className="move-card__error" role="alert">
          {move.error instanceof MoveNotLanded && move.error.final ? t("move.alreadyMoved") : pending ? t("move.kept") : t("move.failed")}
        </p>
      )}
      <PendingButton label={pending ? t("move.finish") : t("move.button")} pendingLabel={t("move.moving")} pending={move.isPending} onClick={() => move.mutate()} />
    </section>
  );
}
