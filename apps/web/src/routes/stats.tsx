import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../components/PlaceholderPage";

export function StatsRoute() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t("pages.statsTitle")} />;
}
