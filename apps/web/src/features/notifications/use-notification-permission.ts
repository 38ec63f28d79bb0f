import { useMutation } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { env } from "../../env";
import { ApiRequestError } from "../../lib/api";
import { BACKOFF_ATTEMPTS, retryDelay } from "../../lib/query-client";
import { useServices } from "../../lib/services";
import { readStored, writeStored } from "../../lib/storage";

/**
 * The bell and the reminder modal share one rule: once permission was asked, open World App's settings;
 * otherwise ask, log whether it was granted, and when it was, schedule the claim reminder with the API.
 */
export function useNotificationPermission(address: Address | null) {
  const { api, wallet, monitoring } = useServices();
  const { i18n } = useTranslation();
  // The permission is asked once: a reminder the API could not schedule at that moment (a 503 while it cannot tell
  // when the next claim opens, a 429, a 5xx, no network) is asked for again, 1 s, 2 s and 4 s later (or when the API
  // said to ask again), even once the modal has closed. A refusal (4xx) is final.
  const { mutate: scheduleReminder } = useMutation({
    mutationFn: ({ to, locale }: { to: Address; locale: string }) => api.scheduleClaimReminder(to, locale),
    retry: (failures, error) => failures < BACKOFF_ATTEMPTS && (!(error instanceof ApiRequestError) || error.status === 429 || error.status >= 500),
    retryDelay,
  });
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
    if (granted && address) scheduleReminder({ to: address, locale: i18n.resolvedLanguage ?? i18n.language });
    return granted ? "granted" : "denied";
  }, [address, i18n, monitoring, scheduleReminder, wallet]);
}

