import { useTranslation } from "react-i18next";
import { PendingButton } from "../../components/PendingButton";
import { useSignIn } from "./use-session";

/** Sign in with the wallet; the label defaults to the claim sign-in label (spec section 2). */
export function SignInButton({ label, large = false }: { label?: string; large?: boolean }) {
  const { t } = useTranslation();
  const signIn = useSignIn();
  return (
    <>
      <PendingButton
        large={large}
        label={label ?? t("claim.signIn")}
        pendingLabel={t("common.signingIn")}
        pending={signIn.isPending}
        onClick={() => signIn.mutate()}
      />
      {signIn.isError && <p className="field-error">{t("common.unknownError")}</p>}
    </>
  );
}
