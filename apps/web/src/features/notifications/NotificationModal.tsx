import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { BellIcon } from "../../components/Icons";
import { Modal } from "../../components/Modal";
import { useNotificationPermission } from "./use-notification-permission";

/** The claim-reminder offer: asks for the permission (or opens the settings when it was asked before), then closes. */
export function NotificationModal({ open, onClose, address }: { open: boolean; onClose: () => void; address: Address | null }) {
  const { t } = useTranslation();
  const askOrOpenSettings = useNotificationPermission(address);
  return (
    <Modal open={open} onClose={onClose} title={t("notifications.title")} art={<span className="modal__bell"><BellIcon size={32} /></span>}>
      <p className="modal__body">{t("notifications.body")}</p>
      <button
        type="button"
        className="button button--primary button--block"
        onClick={() => {
          void askOrOpenSettings().finally(onClose);
        }}
      >
        {t("notifications.enable")}
      </button>
      <button type="button" className="button button--ghost button--block" onClick={onClose}>
        {t("notifications.later")}
      </button>
    </Modal>
  );
}
