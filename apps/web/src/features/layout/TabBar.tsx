import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";

const TABS = [
  { key: "claim", path: "/", icon: "M12 2.8a9.2 9.2 0 1 0 0 18.4 9.2 9.2 0 0 0 0-18.4Zm0 4.7a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9Z" },
  { key: "share", path: "/share", icon: "M16 8a3 3 0 1 0-2.8-4M8 14a3 3 0 1 1-.1 0Zm8 4a3 3 0 1 0 .1 0ZM10.6 12.6l2.8-1.6m-2.8 4.4 2.8 1.6" },
  { key: "about", path: "/about", icon: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 8v5m0-8.5v.5" },
] as const;

/** Claim, Share and About; claim is the index route. */
export function TabBar() {
  const { t } = useTranslation();
  return (
    <nav className="tab-bar" aria-label={t("tabs.label")}>
      {TABS.map((tab) => (
        <NavLink key={tab.key} to={tab.path} end={tab.path === "/"} className={({ isActive }) => `tab${isActive ? " tab--active" : ""}`}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path d={tab.icon} fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span>{t(`tabs.${tab.key}`)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
