import { useTranslation } from "react-i18next";
import { useScreenStrings } from "../../i18n";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import type { ClaimRefusal } from "../../lib/claim-refusal";

/** Why the contract refused the last claim, in the person's words (its strings load with the on-demand screens). */
export function ClaimRefusalNotice({ refusal }: { refusal: ClaimRefusal }) {
  const { t } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const wordsReady = useScreenStrings();
  if (!wordsReady) return null;
  return (
    <p className="notice notice--error" role="alert" data-refusal={refusal}>
      {t(`claimRefused.${refusal}`)}
    </p>
  );
}
