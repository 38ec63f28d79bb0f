import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../components/PlaceholderPage";
import { changeLanguage } from "../i18n";
import { LANGUAGES, LANGUAGE_NAMES, isLanguage } from "../i18n/languages";

export function AboutRoute() {
  const { t, i18n } = useTranslation();
  return (
    <PlaceholderPage title={t("pages.aboutTitle")} body={t("pages.aboutBody")}>
      <label className="field">
        <span className="field__label">{t("language.label")}</span>
        <select
          className="input"
          value={i18n.resolvedLanguage}
          onChange={(event) => {
            if (isLanguage(event.target.value)) void changeLanguage(event.target.value, { remember: true });
          }}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      </label>
    </PlaceholderPage>
  );
}
