import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../components/PlaceholderPage";

export function PollsRoute() {
  const { t } = useTranslation();
  return <PlaceholderPage title={t("pages.pollsTitle")} />;
}
