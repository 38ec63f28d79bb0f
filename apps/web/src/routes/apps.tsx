import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../components/PlaceholderPage";

export function AppsRoute() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t("pages.appsTitle")} />;
}
