import { useTranslation } from "react-i18next";
import { deployment, env } from "../env";
import { useSession } from "../features/session/use-session";
import { useServices } from "../lib/services";

/** Loaded on demand: what a tester needs to report a problem. */
export default function DebugRoute() {
  const { t, i18n } = useTranslation();
  const { wallet } = useServices();
  const user = useSession();
  const rows: [string, string][] = [
    [t("debug.environment"), env.mode],
    [t("debug.inWorldApp"), wallet.isInWorldApp() ? t("debug.yes") : t("debug.no")],
    [t("debug.chain"), String(env.chainId)],
    [t("debug.token"), deployment?.contracts.Oro.address ?? t("debug.none")],
    [t("debug.address"), user?.address ?? t("debug.none")],
    [t("debug.language"), i18n.resolvedLanguage ?? i18n.language],
  ];
  return (
    <section className="page">
      <h1 className="page__title">{t("debug.title")}</h1>
      <dl className="debug-list">
        {rows.map(([label, value]) => (
          <div key={label} className="debug-list__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
