import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { BellIcon } from "../../components/Icons";
import { useNotificationPermission } from "./use-notification-permission";

/** First tap asks for the notification permission; once asked, it opens World App's settings. */
export function NotificationBell({ address }: { address: Address }) {
  const { t } = useTranslation();
  const askOrOpenSettings = useNotificationPermission(address);
  return (
    <button type="button" className="icon-button" aria-label={t("header.reminders")} onClick={() => void askOrOpenSettings()}>
      <BellIcon size={22} />
    </button>
  );
}
