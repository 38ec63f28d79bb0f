import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { initI18n, loadScreenStrings } from "../src/i18n";
import { allAnnouncementIds } from "../src/features/announcements/announcements";
import { resetStorageCache, writeStored } from "../src/lib/storage";

// findBy/waitFor wait up to 5 s for what the app does (they return as soon as the element is there).
configure({ asyncUtilTimeout: 5000 });

/**
 * What the app loads on demand (React.lazy: the screens but /, the claim screen's and the layout's late parts), loaded
 * before a file's tests, under the hook's budget: the first transform of a chunk took more than the 5 s above on a
 * loaded machine (CI's /stats test failed waiting for the supply), and a test's waits are for the app, not for Vite.
 */
const onDemand = import.meta.glob([
  "../src/routes/*.tsx",
  "../src/features/claim/{ClaimRefusalNotice,MoveToWorldId4Card}.tsx",
  "../src/features/announcements/AnnouncementHost.tsx",
  "../src/features/referral/ClaimReferral.tsx",
  "../src/lib/world-app/dev/DevWalletPicker.tsx",
]);

beforeAll(async () => {
  if (typeof window !== "undefined") {
    await Promise.all([initI18n("en").then(() => loadScreenStrings("en")), ...Object.values(onDemand).map((load) => load())]);
  }
});

beforeEach(() => {
  if (typeof window === "undefined") return;
  window.localStorage.clear();
  resetStorageCache();
  // Announcements stay out of the way of other tests; test/announcements.test.tsx clears this.
  writeStored("seenAnnouncements", allAnnouncementIds());
});

afterEach(() => {
  if (typeof window !== "undefined") cleanup();
});
