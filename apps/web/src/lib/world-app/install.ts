import { CHAIN_IDS } from "@oro/clients";
import { MiniKit } from "@worldcoin/minikit-js";
import { lazy } from "react";
import { env } from "../../env";
import { installDevWallet } from "./fallback";

/** A literal the build writes (scripts/production-guard.ts): false in a production build, which drops the imports below. */
declare const __DEVELOPMENT_BUILD__: boolean;

/** Connects to World App when the page runs inside it; a no-op in a plain browser. */
export function installMiniKit(): boolean {
  if (!MiniKit.isInWorldApp()) return false;
  return MiniKit.install(env.worldAppId).success;
}

/**
 * Outside World App in a development build on the local chain, the commands fall back to the development wallet
 * (loaded when one first needs it) and the layout shows its account picker. Installed once, at start-up (main.tsx).
 */
export function installDevelopmentWallet(): void {
  if (__DEVELOPMENT_BUILD__ && env.chainId === CHAIN_IDS.development) {
    installDevWallet(
      () => import("./dev/dev-wallet").then((module) => module.createDevWallet(env)),
      lazy(() => import("./dev/DevWalletPicker")),
    );
  }
}

export function isInWorldApp(): boolean {
  return MiniKit.isInWorldApp();
}

/** World App can make World ID 4.0 proofs here: it announces IDKit's verify command version 2. */
export function worldId4Available(): boolean {
  const commands = (window as { WorldApp?: { supported_commands?: { name: string; supported_versions?: number[] }[] } }).WorldApp?.supported_commands;
  return Array.isArray(commands) && commands.some((command) => command.name === "verify" && command.supported_versions?.includes(2) === true);
}

/**
 * World App's safe area (`WorldApp.safe_area_insets`): the system bars and its own top-right controls, which a
 * WebView's CSS `env()` does not always report. The layout's --safe-* variables take the larger of the two.
 */
export function applySafeAreaInsets(root: HTMLElement = document.documentElement): void {
  const insets = (window as { WorldApp?: { safe_area_insets?: Partial<Record<"top" | "right" | "bottom" | "left", unknown>> } }).WorldApp?.safe_area_insets;
  if (!insets) return;
  for (const side of ["top", "right", "bottom", "left"] as const) {
    const value = Number(insets[side]);
    if (Number.isFinite(value) && value > 0) root.style.setProperty(`--safe-${side}`, `max(env(safe-area-inset-${side}, 0px), ${Math.round(value)}px)`);
  }
}
