import { useTranslation } from "react-i18next";
import { PendingButton } from "../components/PendingButton";
import { PlaceholderPage } from "../components/PlaceholderPage";
import { useSession, useSignIn } from "../features/session/use-session";

export function ShareRoute() {
  const { t } = useTranslation();
  const user = useSession();
  const signIn = useSignIn();
  return (
    <PlaceholderPage title={t("pages.shareTitle")} body={t("pages.shareBody")}>
      {!user && (
        <PendingButton label={t("common.signIn")} pendingLabel={t("common.signingIn")} pending={signIn.isPending} onClick={() => signIn.mutate()} />
      )}
    </PlaceholderPage>
  );
}
