import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PARTNER_APPS } from "../../data/partner-apps";
import { env } from "../../env";
import { changeLanguage } from "../../i18n";
import { LANGUAGES, LANGUAGE_NAMES, isLanguage, type Language } from "../../i18n/languages";
import { useServices } from "../../lib/services";
import { AppIcon } from "../apps";
import { useEstimatedHumans } from "./human-count";
import "./about.css";

const currentLanguage = (value: string | undefined): Language => (isLanguage(value) ? value : "en");

/** Title, the estimated number of humans, two app cards, the follow button, more screens, the language picker. */
export function AboutScreen() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { wallet } = useServices();
  const humans = useEstimatedHumans();
  const language = currentLanguage(i18n.resolvedLanguage);
  const cards = PARTNER_APPS.filter((app) => app.onAboutPage).slice(0, 2);
  return (
    <section className="page about">
      <h1 className="page__title">{t("about.title")}</h1>
      <p className="page__body">{t("about.body")}</p>

      <div className="card about__count" aria-live="polite">
        <span className="about__count-value" data-testid="human-count">
          {new Intl.NumberFormat(language).format(humans)}
        </span>
        <span className="about__count-label">{t("about.humansLabel")}</span>
      </div>

      <ul className="about__apps" aria-label={t("about.appsLabel")}>
        {cards.map((app) => (
          <li key={app.id}>
            <button type="button" className="card about__app" onClick={() => wallet.openUrl(app.url)}>
              <AppIcon app={app} size={44} />
              <span className="about__app-text">
                <span className="about__app-name">{app.name}</span>
                <span className="about__app-line">{app.tagline[language]}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>

      <button type="button" className="button button--primary button--block" onClick={() => wallet.openUrl(env.socialUrl)}>
        {t("about.follow")}
      </button>

      <nav className="about__more" aria-label={t("about.moreLabel")}>
        <Link className="about__more-link" to="/stats">{t("stats.title")}</Link>
        <Link className="about__more-link" to="/apps">{t("apps.title")}</Link>
        <Link className="about__more-link" to="/polls">{t("polls.title")}</Link>
        <Link className="about__more-link" to="/terms">{t("about.terms")}</Link>
      </nav>

      <label className="field">
        <span className="field__label">{t("language.label")}</span>
        <select
          className="input"
          value={language}
          onChange={(event) => {
            if (isLanguage(event.target.value)) void changeLanguage(event.target.value, { remember: true });
          }}
        >
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}
