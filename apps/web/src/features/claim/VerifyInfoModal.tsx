import { useTranslation } from "react-i18next";
import { ShieldIcon } from "../../components/Icons";
import { Modal } from "../../components/Modal";
import { env } from "../../env";
import { useServices } from "../../lib/services";

/** World App's answers that have a reason of their own, beside the general one. */
const REASONS: Record<string, "verifyInfo.alreadyJoined" | "verifyInfo.updateWorldApp" | "verifyInfo.requestExpired" | "verifyInfo.appNotAllowed"> = {
  // World App discloses a human's enrolment nullifier once: they enrolled from another wallet.
  nullifier_replayed: "verifyInfo.alreadyJoined",
  world_id_4_not_available: "verifyInfo.updateWorldApp",
  feature_unavailable: "verifyInfo.updateWorldApp",
  // IDKit's own wait, or World App refusing the signed request's times: asking again signs a fresh one.
  timeout: "verifyInfo.requestExpired",
  rp_signature_expired: "verifyInfo.requestExpired",
  timestamp_too_old: "verifyInfo.requestExpired",
  timestamp_too_far_in_future: "verifyInfo.requestExpired",
  invalid_timestamp: "verifyInfo.requestExpired",
  duplicate_nonce: "verifyInfo.requestExpired",
  // World's portal does not (yet) know or accept ORO's relying party: nothing the user can do but wait.
  unknown_rp: "verifyInfo.appNotAllowed",
  inactive_rp: "verifyInfo.appNotAllowed",
  invalid_rp_signature: "verifyInfo.appNotAllowed",
};

/**
 * Why only verified humans can claim, with the way to get verified and the swap app; `failure` is the code the
 * last verification failed with, when it says more.
 */
export function VerifyInfoModal({ open, onClose, failure = null }: { open: boolean; onClose: () => void; failure?: string | null }) {
  const { t } = useTranslation();
  const { wallet } = useServices();
  const reason = failure ? REASONS[failure] : undefined;
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
