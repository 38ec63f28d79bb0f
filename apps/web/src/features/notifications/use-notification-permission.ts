import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { env } from "../../env";
import { useServices } from "../../lib/services";
import { readStored, writeStored } from "../../lib/storage";

/**
 * The bell and the reminder modal share one rule: once permission was asked, open World App's settings;
 * otherwise ask, log whether it was granted, and when it was, schedule the claim reminder with the API.
 */
export function useNotificationPermission(address: Address | null) {
  const { api, wallet, monitoring } = useServices();
  const { i18n } = useTranslation();
  return useCallback(async (): Promise<"settings" | "granted" | "denied"> => {
    if (readStored("notificationPermissionRequested")) {
      wallet.openUrl(env.notificationSettingsUrl);
      return "settings";
    }
    let outcome;
    try {
      outcome = await wallet.requestNotificationPermission();
    } catch {
      outcome = "denied" as const;
    }
    writeStored("notificationPermissionRequested", true);
    if (outcome === "already_requested") {
      wallet.openUrl(env.notificationSettingsUrl);
      return "settings";
    }
    const granted = outcome === "granted" || outcome === "already_granted";
    monitoring.event("notification_permission", { granted });
    if (granted && address) {
      api.scheduleClaimReminder(address, i18n.resolvedLanguage ?? i18n.language).catch(() => undefined);
    }
    return granted ? "granted" : "denied";
  }, [address, api, i18n, monitoring, wallet]);
}
