import { catalogue, entries } from "./catalogue.js";

/** Names that stay as they are in every language. */
const BRAND_NAMES = ["ORO", "World ID", "World App", "World Chain"];

/**
 * The English texts that must not show on a screen in `language`: every fixed piece (between placeholders and
 * tags) of each English catalogue message that the language translates differently, with at least 4 letters,
 * brand names aside.
 */
export function englishPieces(language: string): string[] {
  const english = new Map(entries(catalogue("en")));
  const translated = new Map(entries(catalogue(language)));
  const pieces = new Set<string>();
  for (const [key, message] of english) {
    if (translated.get(key) === message) continue;
    for (const piece of message.split(/\{\{[^}]*\}\}|<\/?\w+>/)) {
      let rest = piece.trim();
      for (const brand of BRAND_NAMES) rest = rest.split(brand).join(" ");
      if ((rest.match(/[A-Za-z]/g) ?? []).length >= 4) pieces.add(piece.trim());
    }
  }
  return [...pieces];
}

/** The English pieces found in a screen's visible text. */
export function englishOn(visibleText: string, language: string): string[] {
  return englishPieces(language).filter((piece) => visibleText.includes(piece));
}
