import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { loadScreenStrings } from "../i18n";
import { SCREEN_NAMESPACES } from "../i18n/screens";

// The page's strings come with it (the screens namespace), before it renders.
await loadScreenStrings();

/** Loaded on demand (linked from the legal notice under the sign-in button). */
export default function TermsRoute() {
  const { t } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const navigate = useNavigate();
  return (
    <article className="page">
      <h1 className="page__title">{t("terms.title")}</h1>
      <p className="page__body">{t("terms.intro")}</p>
      <p className="page__body">{t("terms.noAdvice")}</p>
      <p className="page__body">{t("terms.privacy")}</p>
      <button type="button" className="button button--ghost" onClick={() => void navigate(-1)}>
        {t("terms.back")}
      </button>
    </article>
  );
}
