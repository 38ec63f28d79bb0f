import { defineConfig } from "@playwright/test";
import base from "./playwright.config.js";

/**
 * The journeys against a stack that is already running, in its production shape (the compose stack of
 * packages/deploy/rehearsal: Caddy in front of two API replicas on PostgreSQL, the indexer on PostgreSQL, the
 * development chain): global-setup-rehearsal.ts starts only the simulator, pointed at Caddy's URL. The newcomer's
 * claim, the referral with both rewards claimed on chain, a reminder delivered, and the killswitch (last: it ends
 * minting for good). `pnpm --filter @oro/e2e rehearsal`; packages/deploy/rehearsal/rehearse.sh sets the
 * stack's addresses (ORO_E2E_TARGET_*, see global-setup-rehearsal.ts).
 */
export default defineConfig({
  ...base,
  testMatch: ["01-newcomer.spec.ts", "03-referral.spec.ts", "06-notifications.spec.ts", "10-killswitch.spec.ts"],
  // Not under the suite's test-results, which its run empties when it starts (CI runs both at once).
  outputDir: "./.stack/rehearsal-results",
  globalSetup: "./global-setup-rehearsal.ts",
});
