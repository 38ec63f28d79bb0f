import { SCREEN_NAMESPACES } from "../../i18n/screens";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FlameIcon } from "../../components/Icons";
import { formatOroAmount } from "./format-supply";
import { useStreak } from "../streak";
import { SignInButton } from "../session";
import { useSession } from "../session";
import { useHolders, useTotalSupply } from "./use-token-stats";
import "./stats.css";

function Stat({ label, value, note }: { label: string; value: ReactNode; note?: string | undefined }) {
  return (
    <div className="card stat">
      <dt className="stat__label">{label}</dt>
      <dd className="stat__value">{value}</dd>
      {note && <dd className="stat__note">{note}</dd>}
    </div>
  );
}

/** Total supply (chain), unique holders (indexer through the API) and the user's own streak (the header's query). */
export function StatsScreen() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const locale = i18n.resolvedLanguage ?? "en";
  const user = useSession();
  const supply = useTotalSupply();
  const holders = useHolders();
  const { streak, error: streakError } = useStreak(user?.address ?? null);
  const number = (value: number) => new Intl.NumberFormat(locale).format(value);
  const loading = <span className="skeleton stat__skeleton" aria-label={t("common.loading")} role="img" />;
  const unavailable = <span className="is-muted">{t("stats.unavailable")}</span>;

  return (
    <section className="page stats">
      <h1 className="page__title">{t("stats.title")}</h1>
      <dl className="stats__list">
        <Stat
          label={t("stats.totalSupply")}
          value={supply.isPending ? loading : supply.data === undefined ? unavailable : `${formatOroAmount(supply.data, locale)} ORO`}
        />
        <Stat
          label={t("stats.holders")}
          value={holders.isPending ? loading : holders.data ? number(holders.data.holders) : unavailable}
          note={holders.data?.stale ? t("stats.stale") : undefined}
        />
        <Stat
          label={t("stats.yourStreak")}
          value={
            !user ? (
              <span className="is-muted">{t("stats.signInForStreak")}</span>
            ) : streak ? (
              <span className="stat__streak">
                <FlameIcon size={24} />
                {t("header.streak", { count: streak.currentStreak })}
              </span>
            ) : streakError ? (
              unavailable
            ) : (
              loading
            )
          }
        />
      </dl>
      {!user && <SignInButton />}
    </section>
  );
}
