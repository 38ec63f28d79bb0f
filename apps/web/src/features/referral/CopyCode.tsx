import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { CheckIcon, CopyIcon } from "./share-icons";

/** How long the copied icon stays (spec section 9). */
export const COPY_FEEDBACK_MS = 2000;

/** The user's own code: tap to copy (copied icon for 2 s); a loading indicator, then the code or the error text. */
export function CopyCode({ code, loading, failed }: { code: string | undefined; loading: boolean; failed: boolean }) {
  const { t } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const [copiedAt, setCopiedAt] = useState<number | null>(null);

  useEffect(() => {
    if (copiedAt === null) return;
    const timer = window.setTimeout(() => setCopiedAt(null), COPY_FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [copiedAt]);

  if (failed) {
    return (
      <p className="share-code__error" role="alert">
        {t("share.loadError")}
      </p>
    );
  }
  if (loading || !code) {
    return (
      <div className="share-code share-code--loading" aria-busy="true" aria-label={t("common.loading")}>
        <span className="skeleton share-code__skeleton" />
      </div>
    );
  }
  const copied = copiedAt !== null;
  return (
    <button
      type="button"
      className="share-code"
      aria-label={copied ? t("share.copied") : t("share.copyCode", { code })}
      onClick={() => {
        // The icon confirms the tap; a refused clipboard is ignored (spec section 8).
        navigator.clipboard?.writeText(code).catch(() => undefined);
        setCopiedAt(Date.now());
      }}
    >
      <span className="share-code__value">{code}</span>
      <span className={`share-code__icon${copied ? " share-code__icon--copied" : ""}`} data-testid={copied ? "copied-icon" : "copy-icon"}>
        {copied ? <CheckIcon /> : <CopyIcon />}
      </span>
    </button>
  );
}
