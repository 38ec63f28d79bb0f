import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { useTranslation } from "react-i18next";
import { GiftIcon } from "../../components/Icons";
import { env } from "../../env";
import { formatUsd } from "../../lib/format";
import { useServices } from "../../lib/services";
import { PriceCard } from "../price";
import { SignInButton, useSession } from "../session";
import { isSwapRewardSuccess, useSwapReward, useSwapRewardTerms } from "./use-swap-reward";
import "./rewards.css";

/** Swaps made so far as a share of the minimum that earns the reward (0..1); 0 while the minimum is not known. */
export function swapProgress(totalSwapVolumeUsd: number, minSwapVolumeUsd: number | undefined): number {
  if (minSwapVolumeUsd === undefined) return 0;
  return Math.min(1, Math.max(0, totalSwapVolumeUsd / minSwapVolumeUsd));
}

/**
 * The swap offer: progress toward the minimum swap volume in the partner swap app (both from uno_rewards: the
 * minimum is the API's setting), the token price card with its swap button, and the success state once reached.
 * Signed out, the minimum comes from the offer's public terms; the offer is told without it only until they answer.
 */
export function RewardsCard() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { wallet } = useServices();
  const user = useSession();
  const reward = useSwapReward(user?.address ?? null);
  const terms = useSwapRewardTerms();
  const locale = i18n.resolvedLanguage ?? "en";
  const own = reward.data;
  const minimum = own?.minSwapVolumeUsd ?? terms.data?.minSwapVolumeUsd;
  const goal = minimum === undefined ? null : formatUsd(minimum, locale);
  const success = isSwapRewardSuccess(own);
  // The progress is the user's own answer's only: the public terms alone would show "$0.00 of $5.00" while it loads.
  const percent = own ? Math.round(swapProgress(own.totalSwapVolumeUsd, own.minSwapVolumeUsd) * 100) : 0;
  const progress = own ? t("rewards.progress", { volume: formatUsd(own.totalSwapVolumeUsd, locale), goal: formatUsd(own.minSwapVolumeUsd, locale) }) : t("common.loading");

  return (
    <section className={`card rewards${success ? " rewards--success" : ""}`} aria-labelledby="rewards-title" data-state={success ? "success" : "progress"}>
      <div className="rewards__head">
        <GiftIcon size={40} />
        <h2 id="rewards-title" className="rewards__title">
          {success ? t("rewards.successTitle") : t("rewards.title")}
        </h2>
      </div>
      <p className="rewards__body">{success ? t("rewards.successBody", { goal }) : goal === null ? t("rewards.bodyNoGoal") : t("rewards.body", { goal })}</p>
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
              aria-valuetext={progress}
            >
              <span className="rewards__fill" style={{ width: `${percent}%` }} />
            </div>
            <p className="rewards__progress">
              {progress}
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
