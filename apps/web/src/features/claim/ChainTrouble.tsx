import { useTranslation } from "react-i18next";

/** The banner shown while claims have errors (spec section 8). */
export function ClaimIssuesBanner() {
  const { t } = useTranslation();
  return (
    <div className="banner banner--warning" role="status">
      {t("chain.banner")}
    </div>
  );
}

/** The network-trouble notice: the network has issues, retry later. */
export function ChainTroubleNotice() {
  const { t } = useTranslation();
  return (
    <p className="notice notice--error" role="alert">
      {t("chain.notice")}
    </p>
  );
}
