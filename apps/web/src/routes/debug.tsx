import { useState } from "react";
import { useTranslation } from "react-i18next";
import { deployment, env } from "../env";
import { browserCookies, clearAssignment, EXPERIMENTS, experimentCookieName, isExperimentOn, type ExperimentName } from "../features/experiments";
import { useSession } from "../features/session";
import { useServices } from "../lib/services";
import { STORAGE_KEYS, clearStored, useStored, type StorageKey } from "../lib/storage";
import { devFallbackAvailable } from "../lib/world-app/fallback";
import { loadScreenStrings } from "../i18n";
import { SCREEN_NAMESPACES } from "../i18n/screens";
import "./debug.css";

// The page's strings come with it (the screens namespace), before it renders.
await loadScreenStrings();

function Row({ label, value, action }: { label: string; value: string; action?: { label: string; run: () => void } }) {
  return (
    <div className="debug-list__row">
      <dt>{label}</dt>
      <dd>
        <span className="debug-list__value">{value}</span>
        {action && (
          <button type="button" className="button button--small button--ghost" onClick={action.run}>
            {action.label}
          </button>
        )}
      </dd>
    </div>
  );
}

/** One value kept on the device, with its reset; the session's token is not shown. */
function StoredRow({ storageKey, resetLabel }: { storageKey: StorageKey; resetLabel: string }) {
  const value: unknown = useStored(storageKey);
  const shown = storageKey === "session" && value !== null && typeof value === "object" ? { ...value, token: "…" } : value;
  return <Row label={storageKey} value={JSON.stringify(shown) ?? "null"} action={{ label: resetLabel, run: () => clearStored(storageKey) }} />;
}

/** Loaded on demand: what a tester needs to report a problem, and a reset for each value kept on the device. */
export default function DebugRoute() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { wallet, monitoring } = useServices();
  const user = useSession();
  const [, setCookiesChanged] = useState(0);
  const walletMode = wallet.isInWorldApp() ? t("debug.walletWorldApp") : devFallbackAvailable() ? t("debug.walletDevelopment") : t("debug.walletNone");
  const contracts = Object.entries(deployment?.contracts ?? {}) as [string, { address: string }][];

  return (
    <section className="page">
      <h1 className="page__title">{t("debug.title")}</h1>
      <h2 className="debug-heading">{t("debug.build")}</h2>
      <dl className="debug-list">
        <Row label={t("debug.environment")} value={env.mode} />
        <Row label={t("debug.wallet")} value={walletMode} />
        <Row label={t("debug.inWorldApp")} value={wallet.isInWorldApp() ? t("debug.yes") : t("debug.no")} />
        <Row label={t("debug.analytics")} value={monitoring.analyticsAllowed() ? t("debug.analyticsAllowed") : t("debug.analyticsWithheld")} />
        <Row label={t("debug.chain")} value={String(env.chainId)} />
        <Row label={t("debug.apiUrl")} value={env.apiBaseUrl || window.location.origin} />
        <Row label={t("debug.address")} value={user?.address ?? t("debug.none")} />
        <Row label={t("debug.language")} value={i18n.resolvedLanguage ?? i18n.language} />
      </dl>

      <h2 className="debug-heading">{t("debug.contracts")}</h2>
      <dl className="debug-list">
        {contracts.length === 0 ? (
          <Row label={t("debug.token")} value={t("debug.none")} />
        ) : (
          contracts.map(([name, contract]) => <Row key={name} label={name} value={contract.address} />)
        )}
      </dl>

      <h2 className="debug-heading">{t("debug.experiments")}</h2>
      <dl className="debug-list">
        {(Object.keys(EXPERIMENTS) as ExperimentName[]).map((name) => {
          const experiment = EXPERIMENTS[name];
          const kept = browserCookies.get(experimentCookieName(experiment));
          return (
            <Row
              key={name}
              label={`#${experiment.id} ${name}`}
              value={`${isExperimentOn(name) ? t("debug.on") : t("debug.off")} · ${kept || t("debug.none")}`}
              action={{
                label: t("debug.reset"),
                run: () => {
                  clearAssignment(experiment);
                  setCookiesChanged((count) => count + 1);
                },
              }}
            />
          );
        })}
      </dl>

      <h2 className="debug-heading">{t("debug.stored")}</h2>
      <dl className="debug-list">
        {STORAGE_KEYS.map((key) => (
          <StoredRow key={key} storageKey={key} resetLabel={t("debug.reset")} />
        ))}
      </dl>
    </section>
  );
}
