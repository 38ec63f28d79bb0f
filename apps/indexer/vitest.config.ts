import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The integration suite starts a chain and Ponder twice; unit tests finish in milliseconds.
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
