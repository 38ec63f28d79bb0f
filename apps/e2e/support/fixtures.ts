import { test as base, expect } from "@playwright/test";
import { HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from "@oro/dev-stack/chromium";
import { Simulator } from "./simulator.js";
import { readStack } from "./stack-file.js";

export { expect };

/**
 * Every journey gets the simulator page on the one stack of this run. Without Chromium every journey is skipped
 * with the reason, before any browser is asked for (an automatic fixture runs first).
 */
export const test = base.extend<{ chromium: undefined; sim: Simulator }>({
  chromium: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      testInfo.skip(!HAS_CHROMIUM, NO_CHROMIUM_MESSAGE);
      await use(undefined);
    },
    { auto: true },
  ],
  sim: async ({ page }, use, testInfo) => {
    page.on("pageerror", (error) => console.error(`[${testInfo.title}] page error: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") console.log(`[${testInfo.title.slice(0, 2)}] console ${message.type()}: ${message.text().slice(0, 300)}`);
    });
    // The API's refusals, with their reason, next to the failing step in the report.
    page.on("response", (response) => {
      if (response.status() < 400 || !new URL(response.url()).pathname.startsWith("/api/")) return;
      void response
        .text()
        .catch(() => "")
        .then((body) => console.log(`[${testInfo.title.slice(0, 2)}] ${response.request().method()} ${new URL(response.url()).pathname} → ${response.status()} ${body.slice(0, 300)}`));
    });
    const sim = new Simulator(page, readStack(), testInfo);
    await use(sim);
    // What the phone showed when a journey failed: a screenshot, and its text for the run's closing summary.
    if (testInfo.status !== testInfo.expectedStatus) {
      await sim.shot("failure").catch(() => undefined);
      const shown = await sim.app
        .locator("body")
        .innerText({ timeout: 5_000 })
        .catch((error: unknown) => `(unreadable: ${(error as Error).message.split("\n")[0]})`);
      const status = await sim.page.locator("#status").innerText({ timeout: 5_000 }).catch(() => "");
      testInfo.annotations.push({ type: "phone", description: `${shown.replace(/\s+/g, " ").trim().slice(0, 400)} | simulator: ${status}` });
    }
  },
});
