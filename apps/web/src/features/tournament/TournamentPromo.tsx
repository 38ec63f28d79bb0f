import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { TrophyIcon } from "./TrophyIcon";
import { partnerApp, TOURNAMENT_APP_ID } from "../../data/partner-apps";
import { formatUsd } from "../../lib/format";
import { useServices } from "../../lib/services";
import { daysUntilTournamentEnd, nextTournamentEnd, TOURNAMENT } from "./tournament";
import "./tournament.css";

/** Today's date, moved on at local midnight while the screen stays open. */
function useToday(): Date {
  const [today, setToday] = useState(() => new Date());
  useEffect(() => {
    const now = new Date();
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
    const timer = window.setTimeout(() => setToday(new Date()), midnight - now.getTime() + 50);
    return () => window.clearTimeout(timer);
  }, [today]);
  return today;
}

/** '{n} days until March 13, 3 attempts per day, top 20 win prizes, $100 prizes', the days counted from today. */
export function TournamentPromo() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { wallet } = useServices();
  const today = useToday();
  const locale = i18n.resolvedLanguage ?? "en";
  const days = daysUntilTournamentEnd(today);
  const date = new Intl.DateTimeFormat(locale, { month: "long", day: "numeric" }).format(nextTournamentEnd(today));
  const app = partnerApp(TOURNAMENT_APP_ID);
  return (
    <section className="card tournament" aria-labelledby="tournament-title">
      <div className="tournament__head">
        <TrophyIcon size={40} />
        <h2 id="tournament-title" className="tournament__title">{t("tournament.title")}</h2>
      </div>
      <p className="tournament__days" data-testid="tournament-days">
        {days === 0 ? t("tournament.endsToday", { date }) : t("tournament.daysUntil", { count: days, date })}
      </p>
      <ul className="tournament__facts">
        <li>{t("tournament.attempts", { attempts: TOURNAMENT.attemptsPerDay })}</li>
        <li>{t("tournament.winners", { winners: TOURNAMENT.winners })}</li>
        <li>{t("tournament.prizes", { amount: formatUsd(TOURNAMENT.prizeUsd, locale) })}</li>
      </ul>
      {app && (
        <button type="button" className="button button--primary button--block" onClick={() => wallet.openUrl(app.url)}>
          {t("tournament.play", { name: app.name })}
        </button>
      )}
    </section>
  );
}
