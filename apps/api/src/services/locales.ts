/** The product's languages (SPEC section 1); en is the fallback. */
export const LOCALES = ["en", "es", "fil", "id", "ja", "ko", "pt", "th"] as const;

export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en";

const isLocale = (value: string): value is Locale => (LOCALES as readonly string[]).includes(value);

/**
 * A language tag from a client ("es", "pt-BR", "tl", "JA") as one of the eight; anything else is en.
 * Tagalog ("tl") is Filipino.
 */
export function toLocale(tag: string | undefined): Locale {
  const primary = (tag ?? "").trim().toLowerCase().split(/[-_]/)[0] ?? "";
  if (primary === "tl") return "fil";
  return isLocale(primary) ? primary : DEFAULT_LOCALE;
}

/** The text of `texts` in `locale`, else in en. */
export function localised(texts: Partial<Record<Locale, string>> & { en: string }, locale: Locale): string {
  return texts[locale] ?? texts.en;
}
