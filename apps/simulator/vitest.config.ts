import { defineConfig } from "vitest/config";

// The browser test starts a whole local stack (chain, indexer, API, web) on a loaded 2-core machine.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 400_000,
    maxWorkers: 1,
  },
});
