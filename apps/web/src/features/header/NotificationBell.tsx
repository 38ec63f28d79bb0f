import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { useNotificationPermission } from "../notifications/use-notification-permission";

/** First tap asks for the notification permission; once asked, it opens World App's settings. */
export function NotificationBell({ address }: { address: Address }) {
  const { t } = useTranslation();
  const askOrOpenSettings = useNotificationPermission(address);
  return (
    <button type="button" className="icon-button" aria-label={t("header.reminders")} onClick={() => void askOrOpenSettings()}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          d="M12 3a6 6 0 0 0-6 6v3.6l-1.6 2.9A1 1 0 0 0 5.3 17h13.4a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6Zm-2.5 15.5a2.5 2.5 0 0 0 5 0"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.9"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
