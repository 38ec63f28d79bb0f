/**
 * Development harness (served by the Vite dev server for the screenshot script, and built in development mode for
 * the browser tests by test/helpers/harness-server.ts): the real app with fake services, one claim
 * state per `?state=`, for the screenshot script and the browser tests. `&lang=` picks a language.
 */
import { StrictMode, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { MemoryRouter } from "react-router";
import { App } from "../../src/App";
import { initI18n } from "../../src/i18n";
import { isLanguage } from "../../src/i18n/languages";
import { createQueryClient } from "../../src/lib/query-client";
import { allAnnouncementIds } from "../../src/features/announcements/announcements";
import { clearStored, resetStorageCache, writeStored } from "../../src/lib/storage";
import "../../src/styles.css";
import { createFakes, seedSignedIn, type FakeOptions } from "../fakes";

const params = new URLSearchParams(window.location.search);
const state = params.get("state") ?? "signedOut";
const language = params.get("lang");

const scenarios: Record<string, { signedIn: boolean; verified: boolean; options: FakeOptions }> = {
  signedOut: { signedIn: false, verified: false, options: {} },
  notVerified: { signedIn: true, verified: false, options: { lastMintedSecondsAgo: null } },
  ready: { signedIn: true, verified: true, options: { lastMintedSecondsAgo: 2 * 86_400 } },
  notReady: { signedIn: true, verified: true, options: { lastMintedSecondsAgo: 3 * 3600 + 1234 } },
  claiming: { signedIn: true, verified: true, options: { mintConfirmsAfterReads: Number.POSITIVE_INFINITY } },
  success: { signedIn: true, verified: true, options: { mintConfirmsAfterReads: 1 } },
  chainTrouble: { signedIn: true, verified: true, options: { sendTransactionError: new Error("HTTP request failed") } },
};
const scenario = scenarios[state] ?? scenarios.signedOut;

window.localStorage.clear();
resetStorageCache();
clearStored("session");
if (scenario?.signedIn) seedSignedIn({ verified: scenario.verified });
// Announcements only where a screenshot asks for one (&announce=<id>), so they never cover another screen.
const announce = params.get("announce");
writeStored("seenAnnouncements", allAnnouncementIds().filter((id) => id !== announce));
// &swap=<USD> sets the swap volume uno_rewards answers; &voteError=<code> makes votes fail with that code.
const swap = params.get("swap");
const voteError = params.get("voteError");
const fakes = createFakes({
  ...scenario?.options,
  ...(swap === null ? {} : { swapReward: { rewardStatus: Number(swap) >= 5 ? "Eligible" : "Ineligible", totalSwapVolumeUsd: Number(swap), minSwapVolumeUsd: 5 } }),
  ...(voteError === null ? {} : { voteError }),
});
const queryClient = createQueryClient();
// The browser tests wait until the query client is idle (settled in test/helpers/harness-browser.ts).
Object.assign(window, { __oroFakes: fakes, __oroQueryClient: queryClient });

function Router({ children }: { children: ReactNode }) {
  return <MemoryRouter initialEntries={[params.get("path") ?? "/"]}>{children}</MemoryRouter>;
}

const i18n = await initI18n(isLanguage(language) ? language : "en");
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App services={fakes.services} queryClient={queryClient} i18n={i18n} Router={Router} />
    </StrictMode>,
  );
}
