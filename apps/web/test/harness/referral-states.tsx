/**
 * Development harness (served by the Vite dev server for the screenshot script, and built in development mode for
 * the browser tests by test/helpers/harness-server.ts): the real app with fake services in one
 * referral state per `?state=` (the claim screen's invite card, modal and banners; the share screen), for the
 * screenshot script. `&lang=` picks a language.
 */
import type { ApiSchemas } from "@oro/clients";
import { StrictMode, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { MemoryRouter } from "react-router";
import { App } from "../../src/App";
import { captureDeepLinkReferral } from "../../src/features/referral/deep-link";
import { initI18n } from "../../src/i18n";
import { isLanguage } from "../../src/i18n/languages";
import { createQueryClient } from "../../src/lib/query-client";
import { resetStorageCache } from "../../src/lib/storage";
import "../../src/styles.css";
import { createFakes, REFERRAL_CLAIM, seedSignedIn, USER, type FakeOptions, type Fakes } from "../fakes";

const params = new URLSearchParams(window.location.search);
const state = params.get("state") ?? "card";
const language = params.get("lang");

const ORO = 1_000_000_000_000_000_000n;
const iso = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
const voucher = (nonce: number, amount: bigint): ApiSchemas["ClaimableSignature"] => ({
  contractAddress: REFERRAL_CLAIM,
  message: { account: USER, amount: amount.toString(), nonce: String(nonce) },
  signature: "0x5e",
});
const invite = (username: string | null, paymentType: "claimable" | "auto", hasClaimed: boolean, secondsAgo: number, nonce: number): ApiSchemas["ReferredUser"] => ({
  userId: `u-${nonce}`,
  username,
  paymentType,
  paymentAmountWei: ORO.toString(),
  hasClaimed,
  updatedAt: iso(secondsAgo),
  ...(paymentType === "claimable" ? { claimableSignature: voucher(nonce, ORO) } : {}),
});
const invites = [
  invite("maria.s", "claimable", false, 12, 1),
  invite("kenji", "claimable", false, 5400, 2),
  invite("ana_b", "claimable", true, 45, 3),
  invite(null, "auto", true, 3 * 86_400, 4),
  invite("li.wei", "auto", true, 20 * 60, 5),
];
const refereeReward: ApiSchemas["RefereeReward"] = {
  paymentType: "claimable",
  paymentAmountWei: (ORO / 2n).toString(),
  hasClaimed: false,
  updatedAt: iso(300),
  claimableSignature: voucher(9, ORO / 2n),
};
const never = () => new Promise<never>(() => undefined);

interface Scenario {
  path: string;
  signedIn: boolean;
  verified: boolean;
  options?: FakeOptions;
  deepLink?: string;
  patch?: (fakes: Fakes) => void;
}

const claim = (options: FakeOptions = {}, extra: Partial<Scenario> = {}): Scenario => ({ path: "/", signedIn: true, verified: true, options, ...extra });
const share = (options: FakeOptions = {}, extra: Partial<Scenario> = {}): Scenario => ({ path: "/share", signedIn: true, verified: true, options, ...extra });

const scenarios: Record<string, Scenario> = {
  card: claim(),
  modalError: claim({ acceptError: "REFERRAL_CODE_NOT_FOUND" }),
  modalSubmitting: claim({}, { patch: (fakes) => (fakes.services.api.acceptReferral = never) }),
  deepLink: claim({}, { deepLink: "?referralCode=K7QX3MZP&referredBy=maria.s" }),
  deepLinkNotVerified: claim({ lastMintedSecondsAgo: null }, { verified: false, deepLink: "?referralCode=K7QX3MZP&referredBy=maria.s" }),
  bonusBanner: claim({ lastMintedSecondsAgo: null, eligibility: { eligible: false, reason: "ALREADY_REFERRED", referralApplied: true, referrerUsername: "maria.s" } }),
  alreadyExists: claim({ acceptError: "REFERRAL_ALREADY_EXISTS" }, { deepLink: "?referralCode=K7QX3MZP&referredBy=maria.s" }),
  alreadyClaimed: claim({ lastMintedSecondsAgo: 3 * 3600, eligibility: { eligible: false, reason: "ALREADY_CLAIMED", referralApplied: false, referrerUsername: null } }, { deepLink: "?referralCode=K7QX3MZP" }),
  shareSignedOut: { path: "/share", signedIn: false, verified: false },
  shareLoading: share({}, {
    patch: (fakes) => {
      fakes.services.api.getReferralCode = never;
      fakes.services.api.getReferralEarnings = never;
    },
  }),
  shareError: share({ referralCode: new Error("500"), earnings: new Error("500") }),
  shareInvites: share({ earnings: { totalOroEarnedWei: "3500000000000000000", usersReferred: invites, rewardForBeingReferee: null, referredByUsername: null, refereeRewardPending: false, usersReferredCount: invites.length, nextCursor: null } }),
  shareReferee: share({
    earnings: { totalOroEarnedWei: "2500000000000000000", usersReferred: invites.slice(2), rewardForBeingReferee: refereeReward, referredByUsername: "maria.s", refereeRewardPending: false, usersReferredCount: invites.length - 2, nextCursor: null },
  }),
};
const scenario = scenarios[state] ?? claim();

// Announcements (when the app has them) are marked seen, so none covers the screen being shown.
const announcementModules = import.meta.glob<{ allAnnouncementIds?: () => string[] }>("../../src/features/announcements/announcements.ts", { eager: true });
const announcementIds = Object.values(announcementModules).flatMap((module) => module.allAnnouncementIds?.() ?? []);
window.localStorage.clear();
window.localStorage.setItem("oro.hasSeenNotificationModal", "true");
window.localStorage.setItem("oro.seenAnnouncements", JSON.stringify(announcementIds));
resetStorageCache();
if (scenario.signedIn) seedSignedIn({ verified: scenario.verified });
if (scenario.deepLink) captureDeepLinkReferral(scenario.deepLink);
// A human who has never minted may accept a code (the fakes answer eligibility like the API).
const fakes = createFakes({ lastMintedSecondsAgo: null, ...scenario.options });
scenario.patch?.(fakes);
const queryClient = createQueryClient();
// The browser tests wait until the query client is idle (settled in test/helpers/harness-browser.ts).
Object.assign(window, { __oroFakes: fakes, __oroQueryClient: queryClient });

function Router({ children }: { children: ReactNode }) {
  return <MemoryRouter initialEntries={[scenario.path]}>{children}</MemoryRouter>;
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
