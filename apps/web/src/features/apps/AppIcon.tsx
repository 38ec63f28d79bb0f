import type { PartnerApp } from "../../data/partner-apps";
import "./app-icon.css";

/** An app's tile: its initial on its colours (no image to download). */
export function AppIcon({ app, size = 48 }: { app: PartnerApp; size?: number }) {
  return (
    <span
      className="app-icon"
      aria-hidden="true"
      style={{ width: size, height: size, background: app.colors.background, color: app.colors.foreground, fontSize: size * 0.42 }}
    >
      {app.name.charAt(0)}
    </span>
  );
}
