/**
 * The product's eight languages, defined once for the web app and the API. en is the fallback. The codes are
 * what the app and the database store; `fil` (Filipino) has no two-letter code, so the calls that send a
 * two-letter code use Tagalog's `tl` for it, and both sides read `tl` back as `fil`.
 */
export const LANGUAGES = ["en", "es", "fil", "id", "ja", "ko", "pt", "th"] as const;
export type Language = (typeof LANGUAGES)[number];

export const FALLBACK_LANGUAGE: Language = "en";

/** Each language's own name (a picker shows them whatever the current language). */
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

/** The two-letter code of each language, as the notification calls send it. */
export const TWO_LETTER_CODES: Record<Language, string> = {
  en: "en",
  es: "es",
  fil: "tl",
  id: "id",
  ja: "ja",
  ko: "ko",
  pt: "pt",
  th: "th",
};

/** Other primary subtags for the same languages: Tagalog is Filipino; `in` is Indonesian's old code. */
const ALIASES: Readonly<Record<string, Language>> = { tl: "fil", in: "id" };

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language a tag names ('es', 'pt-BR', 'tl', 'FIL_ph'), by its primary subtag, or null when it is none of
 * the eight.
 */
export function languageOfTag(tag: string | null | undefined): Language | null {
  const primary = (tag ?? "").trim().toLowerCase().split(/[-_]/)[0] ?? "";
  const language = ALIASES[primary] ?? primary;
  return isLanguage(language) ? language : null;
}

/** The two-letter code for a tag; anything that is none of the eight is en. */
export function twoLetterCodeOf(tag: string | null | undefined): string {
  return TWO_LETTER_CODES[languageOfTag(tag) ?? FALLBACK_LANGUAGE];
}
