import { useTranslation } from "react-i18next";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { CoinIcon } from "../../components/CoinIcon";
import type { ClaimableSignature } from "../../lib/api";
import { formatShareAmount } from "./share-format";

/** The referee's own reward, waiting to be claimed: who invited them, the amount and a claim button. */
export function RefereePanel({
  referrerName,
  amountWei,
  claimable,
  claiming,
  disabled,
  onClaim,
}: {
  referrerName: string;
  amountWei: bigint;
  claimable: ClaimableSignature;
  claiming: boolean;
  disabled: boolean;
  onClaim: (claimable: ClaimableSignature) => void;
}) {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const amount = t("share.amount", { amount: formatShareAmount(amountWei, i18n.resolvedLanguage ?? "en") });
  return (
    <section className="card referee-panel" aria-label={t("share.refereeTitle", { name: referrerName })}>
      <CoinIcon size={44} className="referee-panel__coin" />
      <div className="referee-panel__text">
        <h2 className="referee-panel__title">{t("share.refereeTitle", { name: referrerName })}</h2>
        <p className="referee-panel__body">{t("share.refereeBody", { amount })}</p>
      </div>
      <button type="button" className="button button--small" disabled={disabled} aria-busy={claiming} onClick={() => onClaim(claimable)}>
        {claiming ? t("share.claiming") : t("share.claim")}
      </button>
    </section>
  );
}
