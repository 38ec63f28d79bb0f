import { useTranslation } from "react-i18next";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { CoinIcon } from "../../components/CoinIcon";
import { Modal } from "../../components/Modal";
import { CoinRain } from "../after-claim";
import { formatShareAmount } from "./share-format";

export interface RefereeSuccess {
  amountWei: bigint;
  referrerName: string;
  /** When the claim was seen on chain (ms): starts the coin rain. */
  at: number;
}

/** After the referee's reward is claimed: the coin rain and 'earned extra ORO from {name}' with the amount. */
export function RefereeSuccessModal({ success, onClose }: { success: RefereeSuccess | null; onClose: () => void }) {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const amount = success ? formatShareAmount(success.amountWei, i18n.resolvedLanguage ?? "en") : "";
  return (
    <>
      <Modal open={success !== null} onClose={onClose} title={t("share.successTitle", { amount })} art={<CoinIcon size={72} className="claim__coin--pop" />}>
        <p className="modal__body">{t("share.successBody", { name: success?.referrerName ?? "" })}</p>
        <button type="button" className="button button--primary button--block" onClick={onClose}>
          {t("share.successClose")}
        </button>
      </Modal>
      <div className="share-success-rain">
        <CoinRain startedAt={success?.at ?? null} />
      </div>
    </>
  );
}
