import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { useServices } from "../../lib/services";
import { readStored, writeStored } from "../../lib/storage";

/** Once a user is connected, their language goes to the API once, then it is marked as set. */
export function useSendLocaleOnce(address: Address | null): void {
  const { api } = useServices();
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  useEffect(() => {
    if (!address || readStored("localeSetFor") === address.toLowerCase()) return;
    let cancelled = false;
    api
      .setNotificationLocale(address, language)
      .then(() => {
        if (!cancelled) writeStored("localeSetFor", address.toLowerCase());
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [address, api, language]);
}
