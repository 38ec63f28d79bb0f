import { useTranslation } from "react-i18next";
import { CoinIcon } from "../../components/CoinIcon";
import { FlameIcon } from "../../components/Icons";
import { formatOroBalance } from "../../lib/format";
import { useClaim } from "../claim";
import { NotificationBell } from "../notifications";
import { useOroBalance } from "../balance";
import { useStreak } from "../streak";

/** Shown only when signed in: streak, reminder bell and balance; gold when a claim is ready, blue otherwise. */
export function Header() {
  const { t, i18n } = useTranslation();
  const { user, readiness } = useClaim();
  const address = user?.address ?? null;
  const { streak } = useStreak(address);
  const balance = useOroBalance(address);
  if (!user) return null;
  const locale = i18n.resolvedLanguage ?? "en";
  return (
    <header className={`header ${readiness.ready ? "header--gold" : "header--blue"}`} data-ready={readiness.ready}>
      <div className="header__streak">
        <FlameIcon size={28} className="header__flame" />
        <span className="header__streak-text">
          <span className="header__caption">{t("header.streakLabel")}</span>
          <span className="header__value" data-testid="streak">
            {streak ? t("header.streak", { count: streak.currentStreak }) : "--"}
          </span>
        </span>
      </div>
      <NotificationBell address={user.address} />
      <div className="header__balance">
        <span className="header__caption">{t("header.balanceLabel")}</span>
        <span className="header__value" data-testid="balance">
          <CoinIcon size={18} />
          {balance.loading ? "…" : formatOroBalance(balance.failed ? null : balance.wei, locale)}
        </span>
      </div>
    </header>
  );
}
