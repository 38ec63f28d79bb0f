import { defineConfig } from "@playwright/test";
import base from "./playwright.config.js";

/**
 * The benchmarks that need the whole stack and the simulator (`pnpm --filter @oro/e2e bench`): the same one stack
 * as the journeys (global-setup.ts), a bench folder of their own, no retries.
 */
export default defineConfig({
  ...base,
  testDir: "./bench",
  outputDir: "./test-results/bench",
  reporter: [["list"]],
  timeout: 600_000,
});
