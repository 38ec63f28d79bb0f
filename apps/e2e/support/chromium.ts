import { existsSync } from "node:fs";

/** Debian's Chromium (never a downloaded browser); CI installs it with apt-get. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);
export const NO_CHROMIUM_MESSAGE = `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium; CI installs it)`;
