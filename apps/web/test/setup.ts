import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { initI18n } from "../src/i18n";
import { resetStorageCache } from "../src/lib/storage";

beforeAll(async () => {
  if (typeof window !== "undefined") await initI18n("en");
});

beforeEach(() => {
  if (typeof window === "undefined") return;
  window.localStorage.clear();
  resetStorageCache();
});

afterEach(() => {
  if (typeof window !== "undefined") cleanup();
});
