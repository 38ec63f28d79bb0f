import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useScreenStrings } from "../../i18n";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import type { Address } from "viem";
import { PendingButton } from "../../components/PendingButton";
import { useServices } from "../../lib/services";
import { isUserRejection } from "../../lib/world-app/errors";
import type { WorldId3Verification } from "../../lib/world-app/verify";
import { storeWorldId4 } from "../verification";
import { waitForMint } from "./wait-for-mint";

/**
 * Invites a 3.0 human whose World App makes 4.0 proofs to move, once: World App stops making 3.0 proofs on
 * 1 April 2027. Three prompts (a new session, the enrolment proof, a 3.0 proof choosing that session), then one
 * transaction that carries their last claim time and count to the session and closes their 3.0 path.
 */
export function MoveToWorldId4Card({ address, verification }: { address: Address; verification: WorldId3Verification }) {
  // Its words come with the on-demand screens' strings, not with the first load.
  const { t } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const wordsReady = useScreenStrings();
  const { api, chain, wallet, monitoring } = useServices();
  const queryClient = useQueryClient();
  const move = useMutation({
    mutationFn: async () => {
      const { chainNow } = await chain.readWorldIdSettings();
      const proofs = await wallet.moveProofs(address, (kind) => api.getWorldIdRequest(address, kind), chainNow);
      await wallet.sendTransaction(await chain.buildMoveCall(proofs, address));
      await waitForMint(chain, { version: "3.0", nullifierHash: verification.nullifierHash }, (data) => data.movedToWorldId4 === true);
      storeWorldId4(address, { version: "4.0", idkitSessionId: proofs.idkitSessionId, enrolment: null });
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
      <p className="move-card__body">{t("move.body")}</p>
      {failed && (
        <p className="move-card__error" role="alert">
          {t("move.failed")}
        </p>
      )}
      <PendingButton label={t("move.button")} pendingLabel={t("move.moving")} pending={move.isPending} onClick={() => move.mutate()} />
    </section>
  );
}
