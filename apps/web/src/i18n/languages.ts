/** The eight languages of the app; en is the fallback. */
export const LANGUAGES = ["en", "es", "fil", "id", "ja", "ko", "pt", "th"] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = "en";

/** Each language's own name, shown in the picker whatever the current language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  es: "Español",
  fil: "Filipino",
  id: "Bahasa Indonesia",
  ja: "日本語",
  ko: "한국어",
  pt: "Português",
  th: "ไทย",
};

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}$/;
const INJECTION_SIGNS = /[<>"'`(){};=\\/]|javascript:|script|%3c|&#|&lt;/i;

/**
 * Whether a candidate (from storage, the wallet, the browser or a URL) may be used at all: a short BCP 47 tag,
 * nothing that looks like markup or script. Anything else is dropped before it can reach i18n or the DOM.
 */
export function isSafeLanguageCandidate(candidate: unknown): candidate is string {
  if (typeof candidate !== "string") return false;
  if (candidate.length === 0 || candidate.length > 35) return false;
  if (INJECTION_SIGNS.test(candidate)) return false;
  return LANGUAGE_TAG.test(candidate);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps one safe candidate to a supported language: exact, then its primary subtag ('pt-BR' to pt, 'tl' to fil). */
export function toSupportedLanguage(candidate: string): Language | null {
  const normalised = candidate.replace("_", "-").toLowerCase();
  if (isLanguage(normalised)) return normalised;
  const primary = normalised.split("-")[0] ?? "";
  if (primary === "tl") return "fil";
  if (primary === "in") return "id";
  return isLanguage(primary) ? primary : null;
}

/**
 * The language to use: the first candidate, in order of preference (stored choice, wallet, browser), that is
 * safe and supported; en otherwise.
 */
export function detectLanguage(candidates: readonly unknown[]): Language {
  for (const candidate of candidates) {
    if (!isSafeLanguageCandidate(candidate)) continue;
    const language = toSupportedLanguage(candidate);
    if (language) return language;
  }
  return FALLBACK_LANGUAGE;
}
