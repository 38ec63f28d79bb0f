import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../components/PlaceholderPage";
import { useSession, useSignIn } from "../features/session/use-session";

export function ShareRoute() {
  const { t } = useTranslation();
  const user = useSession();
  const signIn = useSignIn();
  return (
    <PlaceholderPage title={t("pages.shareTitle")} body={t("pages.shareBody")}>
      {!user && (
        <button type="button" className="button button--primary button--block" onClick={() => signIn.mutate()} disabled={signIn.isPending}>
          {signIn.isPending ? t("common.signingIn") : t("common.signIn")}
        </button>
      )}
    </PlaceholderPage>
  );
}
