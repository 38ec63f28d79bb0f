import { describe, expect, it } from "vitest";
import { FALLBACK_LANGUAGE, LANGUAGES, isLanguage, languageOfTag, twoLetterCodeOf } from "../src/index.js";

describe("the eight languages", () => {
  it("are en es fil id ja ko pt th, with en the fallback", () => {
    expect([...LANGUAGES]).toEqual(["en", "es", "fil", "id", "ja", "ko", "pt", "th"]);
    expect(FALLBACK_LANGUAGE).toBe("en");
    expect(isLanguage("fil")).toBe(true);
    expect(isLanguage("tl")).toBe(false);
  });

  it("reads a tag by its primary subtag; Tagalog is Filipino, in is Indonesian", () => {
    expect(languageOfTag("pt-BR")).toBe("pt");
    expect(languageOfTag("JA_jp")).toBe("ja");
    expect(languageOfTag("tl")).toBe("fil");
    expect(languageOfTag("tl-PH")).toBe("fil");
    expect(languageOfTag("fil")).toBe("fil");
    expect(languageOfTag("in")).toBe("id");
    expect(languageOfTag("de")).toBeNull();
    expect(languageOfTag(undefined)).toBeNull();
  });

  it("sends Filipino as tl where a two-letter code is needed, anything unknown as en", () => {
    expect(LANGUAGES.map(twoLetterCodeOf)).toEqual(["en", "es", "tl", "id", "ja", "ko", "pt", "th"]);
    expect(twoLetterCodeOf("fr")).toBe("en");
    expect(twoLetterCodeOf(null)).toBe("en");
  });
});
