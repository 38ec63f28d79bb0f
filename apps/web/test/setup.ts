import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { initI18n, loadScreenStrings } from "../src/i18n";
import { allAnnouncementIds } from "../src/features/announcements/announcements";
import { resetStorageCache, writeStored } from "../src/lib/storage";

// Screens other than / are chunks loaded on first visit: on a busy machine the first one takes over a second to
// transform, so findBy/waitFor wait up to 5 s (they return as soon as the element is there).
configure({ asyncUtilTimeout: 5000 });

beforeAll(async () => {
  if (typeof window !== "undefined") {
    await initI18n("en");
    await loadScreenStrings("en");
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
