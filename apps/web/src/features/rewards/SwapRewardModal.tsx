import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { GiftIcon } from "../../components/Icons";
import { Modal } from "../../components/Modal";
import { env } from "../../env";
import { formatUsd } from "../../lib/format";
import { useServices } from "../../lib/services";
import { useSwapReward } from "./use-swap-reward";

/** Offered 4 s after a claim when the swap reward is neither Ineligible nor Claimed. */
export function SwapRewardModal({ open, onClose, address }: { open: boolean; onClose: () => void; address: Address | null }) {
  const { t, i18n } = useTranslation();
  const { wallet } = useServices();
  const reward = useSwapReward(address).data;
  return (
    <Modal open={open} onClose={onClose} title={t("swapReward.title")} art={<GiftIcon size={56} />}>
      <p className="modal__body">
        {t("swapReward.body", { volume: formatUsd(reward?.totalSwapVolumeUsd ?? 0, i18n.resolvedLanguage ?? "en") })}
      </p>
      <button
        type="button"
        className="button button--primary button--block"
        onClick={() => {
          wallet.openUrl(env.swapAppUrl);
          onClose();
        }}
      >
        {t("swapReward.open")}
      </button>
    </Modal>
  );
}
