import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { useTranslation } from "react-i18next";
import { GiftIcon } from "../../components/Icons";
import { env } from "../../env";
import { formatUsd } from "../../lib/format";
import { useServices } from "../../lib/services";
import { PriceCard } from "../price";
import { isSwapRewardSuccess, SWAP_REWARD_MIN_VOLUME_USD, useSwapReward } from "./use-swap-reward";
import { SignInButton } from "../session";
import { useSession } from "../session";
import "./rewards.css";

/** Swaps made so far as a share of the 5 USD that earns the reward (0..1). */
export function swapProgress(totalSwapVolumeUsd: number): number {
  return Math.min(1, Math.max(0, totalSwapVolumeUsd / SWAP_REWARD_MIN_VOLUME_USD));
}

/**
 * The swap offer: progress toward 5 USD of swaps in the partner swap app (from uno_rewards), the token price
 * card with its swap button, and the success state once the swaps reach 5 USD.
 */
export function RewardsCard() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { wallet } = useServices();
  const user = useSession();
  const reward = useSwapReward(user?.address ?? null);
  const locale = i18n.resolvedLanguage ?? "en";
  const goal = formatUsd(SWAP_REWARD_MIN_VOLUME_USD, locale);
  const volume = reward.data?.totalSwapVolumeUsd ?? 0;
  const success = isSwapRewardSuccess(reward.data);
  const percent = Math.round(swapProgress(volume) * 100);

  return (
    <section className={`card rewards${success ? " rewards--success" : ""}`} aria-labelledby="rewards-title" data-state={success ? "success" : "progress"}>
      <div className="rewards__head">
        <GiftIcon size={40} />
        <h2 id="rewards-title" className="rewards__title">
          {success ? t("rewards.successTitle") : t("rewards.title")}
        </h2>
      </div>
      <p className="rewards__body">{success ? t("rewards.successBody", { goal }) : t("rewards.body", { goal })}</p>
      {user ? (
        reward.isError ? (
          <p className="rewards__body is-muted">{t("rewards.unavailable")}</p>
        ) : (
          <>
            <div
              className="rewards__bar"
              role="progressbar"
              aria-label={t("rewards.progressLabel")}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={t("rewards.progress", { volume: formatUsd(volume, locale), goal })}
            >
              <span className="rewards__fill" style={{ width: `${percent}%` }} />
            </div>
            <p className="rewards__progress">
              {reward.isPending ? t("common.loading") : t("rewards.progress", { volume: formatUsd(volume, locale), goal })}
            </p>
          </>
        )
      ) : (
        <SignInButton />
      )}
      <PriceCard />
      {!success && (
        <button type="button" className="button button--primary button--block" onClick={() => wallet.openUrl(env.swapAppUrl)}>
          {t("rewards.swapNow")}
        </button>
      )}
    </section>
  );
}
