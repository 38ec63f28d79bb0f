import { useTranslation } from "react-i18next";
import { ShieldIcon } from "../../components/Icons";
import { Modal } from "../../components/Modal";
import { env } from "../../env";
import { useServices } from "../../lib/services";

/** World App's answers that have a reason of their own, beside the general one. */
function reasonOf(code: string): string | undefined {
  // World App discloses a human's enrolment nullifier once: they enrolled from another wallet.
  if (code === "nullifier_replayed") return "verifyInfo.alreadyJoined";
  if (code === "world_id_4_not_available" || code === "feature_unavailable") return "verifyInfo.updateWorldApp";
  // IDKit's own wait, or World App refusing the signed request's times: asking again signs a fresh one.
  if (/^(timeout|rp_signature_expired|timestamp_too_old|timestamp_too_far_in_future|invalid_timestamp|duplicate_nonce)$/.test(code)) return "verifyInfo.requestExpired";
  // World's portal does not (yet) know or accept ORO's relying party: nothing the user can do but wait.
  if (/^(unknown_rp|inactive_rp|invalid_rp_signature)$/.test(code)) return "verifyInfo.appNotAllowed";
  return undefined;
}

/**
 * Why only verified humans can claim, with the way to get verified and the swap app; `failure` is the code the
 * last verification failed with, when it says more.
 */
export function VerifyInfoModal({ open, onClose, failure = null }: { open: boolean; onClose: () => void; failure?: string | null }) {
  const { t } = useTranslation();
  const { wallet } = useServices();
  const reason = failure ? reasonOf(failure) : undefined;
  return (
    <Modal open={open} onClose={onClose} title={t("verifyInfo.title")} art={<ShieldIcon size={56} />}>
      {reason && <p className="modal__body">{t(reason)}</p>}
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
