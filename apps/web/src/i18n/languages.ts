import { FALLBACK_LANGUAGE, LANGUAGES, LANGUAGE_NAMES, isLanguage, languageOfTag, type Language } from "@oro/clients";

// The eight languages, their names and the tl/fil mapping live once in @oro/clients (the API uses them too).
export { FALLBACK_LANGUAGE, LANGUAGES, LANGUAGE_NAMES, isLanguage, type Language };

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

/** Maps one safe candidate to a supported language by its primary subtag ('pt-BR' to pt, 'tl' to fil). */
export function toSupportedLanguage(candidate: string): Language | null {
  return languageOfTag(candidate);
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
