import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../components/PlaceholderPage";
import { SignInButton } from "../features/session/SignInButton";
import { useSession } from "../features/session/use-session";

export function ShareRoute() {
  const { t } = useTranslation();
  const user = useSession();
  return (
    <PlaceholderPage title={t("pages.shareTitle")} body={t("pages.shareBody")}>
      {!user && (
        <SignInButton />
      )}
    </PlaceholderPage>
  );
}
