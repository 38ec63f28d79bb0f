import { fileURLToPath } from "node:url";
import { DEV_PROFILE, devServiceUrl } from "@oro/clients";
import react from "@vitejs/plugin-react";
import { defineConfig, loadEnv } from "vite";
import { bundleReport } from "./scripts/bundle-report.ts";
import { firstPaint } from "./scripts/first-paint.ts";
import { developmentBuildFlag, productionGuard } from "./scripts/production-guard.ts";

// The dev server and preview listen on 127.0.0.1 only; the port and the API target come from the environment.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), "");
  const port = Number(env.WEB_PORT ?? DEV_PROFILE.ports.web);
  const apiTarget = env.API_URL ?? devServiceUrl("api", env.API_PORT === undefined ? undefined : Number(env.API_PORT));
  return {
    // The claim-issues banner tops the first screen: then the static first paint (without it) is left out.
    plugins: [productionGuard(), developmentBuildFlag(), react(), firstPaint({ i18nDir: fileURLToPath(new URL("./src/i18n", import.meta.url)), enabled: env.VITE_CLAIM_ISSUES_BANNER !== "true" }), bundleReport()],
    server: {
      host: "127.0.0.1",
      port,
      strictPort: true,
      proxy: { "/api": { target: apiTarget, changeOrigin: true } },
    },
    preview: { host: "127.0.0.1", port, strictPort: true },
    build: {
      target: "es2022",
      sourcemap: false,
      chunkSizeWarningLimit: 700,
      // World App WebViews (iOS Safari 17+, Android Chromium) support <link rel=modulepreload>: no polyfill needed.
      modulePreload: { polyfill: false },
      // What / loads before anything lazy is one chunk (left alone, the bundler splits it into some thirty small
      // chunks shared with the lazy screens, each gzipped on its own: more bytes and more requests).
      rolldownOptions: { output: { codeSplitting: { groups: [{ name: "index", tags: ["$initial"] }] } } },
    },
  };
});
