import { FALLBACK_LANGUAGE, LANGUAGES, languageOfTag, type Language } from "@oro/clients";

/** The product's languages, from @oro/clients (the web app uses the same list); en is the fallback. */
export const LOCALES = LANGUAGES;

export type Locale = Language;

export const DEFAULT_LOCALE: Locale = FALLBACK_LANGUAGE;

/**
 * A language tag from a client ("es", "pt-BR", "tl", "JA") as one of the eight; anything else is en.
 * Tagalog ("tl") is Filipino.
 */
export function toLocale(tag: string | undefined): Locale {
  return languageOfTag(tag) ?? DEFAULT_LOCALE;
}

/** The text of `texts` in `locale`, else in en. */
export function localised(texts: Partial<Record<Locale, string>> & { en: string }, locale: Locale): string {
  return texts[locale] ?? texts.en;
}
