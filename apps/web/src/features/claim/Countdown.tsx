import { useTranslation } from "react-i18next";
import { countdownParts } from "../../lib/format";

/** Time left to the next claim: HH:MM:SS, preceded by the days when a day or more is left. */
export function Countdown({ nextMintAt, nowSeconds }: { nextMintAt: number | null; nowSeconds: number }) {
  const { t } = useTranslation();
  const parts = nextMintAt === null ? null : countdownParts(nextMintAt, nowSeconds);
  return (
    <div className="countdown">
      <span className="countdown__label">{t("claim.nextClaim")}</span>
      <span className="countdown__value" role="timer" aria-live="off">
        {parts && parts.days > 0 && <span className="countdown__days">{t("claim.days", { count: parts.days })} </span>}
        <span className="countdown__clock">{parts ? parts.clock : "--:--:--"}</span>
      </span>
    </div>
  );
}
