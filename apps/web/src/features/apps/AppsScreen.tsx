import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { useTranslation } from "react-i18next";
import { PARTNER_APPS } from "../../data/partner-apps";
import { isLanguage } from "../../i18n/languages";
import { useServices } from "../../lib/services";
import { useExperiment } from "../experiments";
import { RewardsCard } from "../rewards";
import { TournamentPromo } from "../tournament";
import { AppIcon } from "./AppIcon";
import "./apps.css";

/**
 * The partner mini apps (from src/data/partner-apps.ts), opened through the wallet, after the swap reward offer
 * and the tournament promo. Experiment 2 shows the directory as a grid of tiles instead of a list.
 */
export function AppsScreen() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { wallet } = useServices();
  const variant = useExperiment("appsPage");
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : "en";
  return (
    <section className="page apps" data-experiment-2={variant}>
      <h1 className="page__title">{t("apps.title")}</h1>
      <RewardsCard />
      <TournamentPromo />
      <h2 className="apps__heading">{t("apps.directory")}</h2>
      <ul className={`apps__list apps__list--${variant === "variant" ? "grid" : "rows"}`}>
        {PARTNER_APPS.map((app) => (
          <li key={app.id}>
            <button
              type="button"
              className="apps__item"
              onClick={() => wallet.openUrl(app.url)}
            >
              <AppIcon app={app} size={variant === "variant" ? 56 : 48} />
              <span className="apps__text">
                <span className="apps__name">{app.name}</span>
                <span className="apps__line">{app.tagline[language]}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
