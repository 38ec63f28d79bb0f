import { useTranslation } from "react-i18next";
import { useScreenStrings } from "../../i18n";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { ShieldIcon } from "../../components/Icons";
import { Modal } from "../../components/Modal";
import { env } from "../../env";
import { useServices } from "../../lib/services";

/** World App's answers that have a reason of their own, beside the general one. */
function reasonOf(code: string): string | undefined {
  // World App discloses a human's enrolment nullifier once: they enrolled from another wallet.
  if (code === "nullifier_replayed") return "verifyFailure.alreadyJoined";
  if (code === "world_id_4_not_available" || code === "feature_unavailable") return "verifyFailure.updateWorldApp";
  // IDKit's own wait, or World App refusing the signed request's times: asking again signs a fresh one.
  if (/^(timeout|rp_signature_expired|timestamp_.*|invalid_timestamp|duplicate_nonce)$/.test(code)) return "verifyFailure.requestExpired";
  // World's portal does not (yet) know or accept ORO's relying party: nothing the user can do but wait.
  if (/^(unknown_rp|inactive_rp|invalid_rp_signature)$/.test(code)) return "verifyFailure.appNotAllowed";
  return undefined;
}

/**
 * Why only verified humans can claim, with the way to get verified and the swap app; `failure` is the code the
 * last verification failed with, when it says more.
 */
export function VerifyInfoModal({ open, onClose, failure = null }: { open: boolean; onClose: () => void; failure?: string | null }) {
  const { t } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { wallet } = useServices();
  const reason = failure ? reasonOf(failure) : undefined;
  // The reasons' words come with the on-demand screens' strings (a failure is rare; the first load stays small).
  const wordsReady = useScreenStrings(open && reason !== undefined);
  return (
    <Modal open={open} onClose={onClose} title={t("verifyInfo.title")} art={<ShieldIcon size={56} />}>
      {reason && wordsReady && <p className="modal__body">{t(reason)}</p>}
      <p className="modal__body">{t("verifyInfo.body")}</p>
      <button type="button" className="button button--primary button--block" onClick={() => wallet.openUrl(env.verifyUrl)}>
        {t("verifyInfo.verifyLink")}
      </button>
      <p className="modal__body modal__body--small">{t("verifyInfo.swapBody")}</p>
      <button type="button" className="button button--ghost button--block" onClick={() => wallet.openUrl(env.swapAppUrl)}>
        {t("verifyInfo.swapLink")}
      </button>
    </Modal>
  );
}
