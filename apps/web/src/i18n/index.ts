import i18next from "i18next";
import { useEffect, useState } from "react";
import { initReactI18next } from "react-i18next";
import { readStored, writeStored } from "../lib/storage";
import { walletLanguageCandidates } from "../lib/world-app/wallet-language";
import en from "./en.json";
import { FALLBACK_LANGUAGE, detectLanguage, type Language } from "./languages";

export type Translations = typeof en;

// en ships with the first load (it is the fallback); every other language is its own small chunk.
const loaders = import.meta.glob<Translations>(["./*.json", "!./en.json"], { import: "default" });

/**
 * The strings of the screens other than / (stats, about, apps, polls, announcements) are the `screens` namespace,
 * in src/i18n/screens/: each language its own small chunk, loaded by the first of those screens to open (they are
 * chunks of their own too), so the first load of / does not carry them.
 */
const screenLoaders = import.meta.glob<Record<string, unknown>>("./screens/*.json", { import: "default" });
let screensInUse = false;

export async function loadScreenStrings(language: string = i18next.resolvedLanguage ?? FALLBACK_LANGUAGE): Promise<void> {
  screensInUse = true;
  // Before initI18n (a test importing a screen first): initI18n's changeLanguage loads them.
  if (!i18next.isInitialized) return;
  for (const each of new Set([language, FALLBACK_LANGUAGE])) {
    if (i18next.hasResourceBundle(each, "screens")) continue;
    const loader = screenLoaders[`./screens/${each}.json`];
    if (loader) i18next.addResourceBundle(each, "screens", await loader());
  }
}

/** For a component on the first screen whose words are screen strings: true once they are loaded (when `wanted`). */
export function useScreenStrings(wanted = true): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (wanted) void loadScreenStrings().then(() => setReady(true));
  }, [wanted]);
  return ready;
}

async function loadTranslations(language: Language): Promise<Translations> {
  if (language === FALLBACK_LANGUAGE) return en;
  const loader = loaders[`./${language}.json`];
  if (!loader) return en;
  return loader();
}

export function browserLanguageCandidates(): string[] {
  if (typeof navigator === "undefined") return [];
  return [...(navigator.languages ?? []), navigator.language];
}

/** Stored choice first, then the wallet, then the browser. */
export function initialLanguage(): Language {
  return detectLanguage([readStored("language"), ...walletLanguageCandidates(), ...browserLanguageCandidates()]);
}

export async function initI18n(language: Language = initialLanguage()): Promise<typeof i18next> {
  const resources = { [FALLBACK_LANGUAGE]: { translation: en } };
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      resources,
      lng: FALLBACK_LANGUAGE,
      fallbackLng: FALLBACK_LANGUAGE,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await changeLanguage(language, { remember: false });
  return i18next;
}

/** Loads a language's strings if needed and switches to it; `remember` stores it as the user's choice. */
export async function changeLanguage(language: Language, { remember }: { remember: boolean }): Promise<void> {
  if (!i18next.hasResourceBundle(language, "translation")) {
    i18next.addResourceBundle(language, "translation", await loadTranslations(language));
  }
  if (screensInUse) await loadScreenStrings(language);
  await i18next.changeLanguage(language);
  if (typeof document !== "undefined") document.documentElement.lang = language;
  if (remember) writeStored("language", language);
}

export { i18next };
