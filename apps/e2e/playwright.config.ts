import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "@oro/dev-stack/chromium";

/**
 * One stack (chain, indexer, API, web build, simulator) for the whole run, started on free ports by
 * global-setup.ts. The simulator is one World App with one active wallet, so the journeys run one after
 * another in file order (journeys/NN-*.spec.ts); the ones that change the chain for everyone (time, owner
 * settings, the killswitch) come last, the killswitch at the very end.
 */
export default defineConfig({
  testDir: "./journeys",
  outputDir: "./test-results",
  globalSetup: "./global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // A loaded 2-core machine: transactions, the indexer and the API's caches all take their time.
  timeout: 240_000,
  expect: { timeout: 45_000 },
  reporter: [["list"], ["./support/summary-reporter.ts"]],
  use: {
    browserName: "chromium",
    headless: true,
    // The simulator page: the 390×844 phone and its controls beside it.
    viewport: { width: 1100, height: 960 },
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    // A failed journey's trace keeps the page at every action (DOM snapshots) but no screencast: the screencast makes
    // Chromium paint and encode frames all run long on a 2-core machine (the journeys' own screenshots show the phone).
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true },
    launchOptions: chromiumLaunchOptions(),
  },
});
