import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { createServer } from "vite";

/** Debian's Chromium (CHROMIUM_PATH moves it); the browser tests skip without it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
/** Without the background-networking flags Chromium floods the closed network with refused connections. */
export const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface HarnessBrowser {
  /** The Vite dev server's origin, serving the app and test/harness/. */
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

/** The app's Vite dev server on a free port and Chromium, for the tests that drive the harness pages. */
export async function startHarnessBrowser(): Promise<HarnessBrowser> {
  // Port 0: the system picks a free port.
  const server = await createServer({ root: join(import.meta.dirname, "..", ".."), logLevel: "error", server: { host: "127.0.0.1", port: 0, strictPort: true } });
  await server.listen();
  const origin = (server.resolvedUrls?.local[0] ?? "").replace(/\/$/, "");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  return {
    origin,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
