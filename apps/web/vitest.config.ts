import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { developmentBuildFlag } from "./scripts/production-guard.ts";

export default defineConfig({
  plugins: [react(), developmentBuildFlag()],
  test: {
    environment: "jsdom",
    setupFiles: ["./test/setup.ts"],
    // One build of the harness pages, served to every browser test of the run (built on the first request).
    globalSetup: ["./test/helpers/harness-server.ts"],
    include: ["test/**/*.test.{ts,tsx}"],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    restoreMocks: true,
  },
});
