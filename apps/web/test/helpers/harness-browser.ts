import { join } from "node:path";
import { chromiumLaunchOptions } from "@oro/dev-stack/chromium";
import { chromium, type Browser } from "playwright-core";
import { createServer } from "vite";

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
  const browser = await chromium.launch(chromiumLaunchOptions());
  // The first page makes Vite optimise the dependencies and transform the app: tens of seconds on a loaded
  // machine. Done once here, under the hook's budget, so that no test's own waits pay for it.
  const warmUp = await browser.newPage();
  await warmUp.goto(`${origin}/`, { waitUntil: "load", timeout: 110_000 });
  await warmUp.close();
  return {
    origin,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
