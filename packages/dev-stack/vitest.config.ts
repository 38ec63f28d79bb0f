import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The stack tests start the whole product as a process (twice): minutes on a loaded 2-core machine.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
