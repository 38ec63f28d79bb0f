import { existsSync } from "node:fs";
import { chromiumPathFrom } from "./env.js";

/**
 * The one Chromium launch of the repository (`@oro/dev-stack/chromium`): the tests, the end-to-end journeys,
 * the benches and the scripts that drive a browser take the path, the flags and the skip from here.
 */
export const CHROMIUM_PATH = chromiumPathFrom();
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);
/** Why a browser test skips on a machine without it. */
export const NO_CHROMIUM_MESSAGE = `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium; CI installs it)`;

/**
 * Flags for a headless Chromium in a container (no sandbox, no GPU) that talks to nothing but the local stack.
 * Playwright adds `--headless` itself; a direct `chromium` command line adds it to these.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Playwright's launch options for this Chromium: `chromium.launch(chromiumLaunchOptions())`. */
export function chromiumLaunchOptions(): { executablePath: string; args: string[] } {
  return { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] };
}
