import { useTranslation } from "react-i18next";
import { ShieldIcon } from "../../components/Icons";
import { Modal } from "../../components/Modal";
import { env } from "../../env";
import { useServices } from "../../lib/services";

/** Why only verified humans can claim, with the way to get verified and the swap app. */
export function VerifyInfoModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { wallet } = useServices();
  return (
    <Modal open={open} onClose={onClose} title={t("verifyInfo.title")} art={<ShieldIcon size={56} />}>
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
