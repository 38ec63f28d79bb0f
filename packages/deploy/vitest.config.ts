import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // docker-compose (Python) takes a few seconds per run on a loaded machine.
    testTimeout: 120_000,
  },
});
