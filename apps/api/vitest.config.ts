import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Each file opens its own database (and some a local chain): two at a time on a 2-core machine.
    maxWorkers: 2,
  },
});
