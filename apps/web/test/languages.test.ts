import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES, detectLanguage, isSafeLanguageCandidate } from "../src/i18n/languages";

describe("language detection", () => {
  it("takes the first safe, supported candidate in order (stored, wallet, browser)", () => {
    expect(detectLanguage(["ja", "es", "en"])).toBe("ja");
    expect(detectLanguage([null, "ko-KR", "es"])).toBe("ko");
    expect(detectLanguage(["de-DE", "pt-BR"])).toBe("pt");
    expect(detectLanguage(["tl-PH"])).toBe("fil");
    expect(detectLanguage(["id_ID"])).toBe("id");
  });

  it("falls back to en when nothing fits", () => {
    expect(detectLanguage([])).toBe("en");
    expect(detectLanguage(["de", "fr-FR", 42, undefined])).toBe("en");
  });

  it.each([
    "<script>alert(1)</script>",
    "es<img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "en\" onmouseover=\"x",
    "ja'); alert('x",
    "%3Cscript%3E",
    "th&#60;",
    "ko;drop",
    "es/../../etc",
    "x".repeat(40),
  ])("discards a candidate that looks like script injection: %s", (candidate) => {
    expect(isSafeLanguageCandidate(candidate)).toBe(false);
    expect(detectLanguage([candidate, "th"])).toBe("th");
  });

  it("accepts ordinary language tags", () => {
    for (const tag of ["en", "pt-BR", "zh-Hant-TW", "fil", "es_419"]) expect(isSafeLanguageCandidate(tag)).toBe(true);
  });
});

type Tree = { [key: string]: string | Tree };
const dir = join(import.meta.dirname, "../src/i18n");
const load = (language: string): Tree => JSON.parse(readFileSync(join(dir, `${language}.json`), "utf8")) as Tree;

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** The plural forms a language needs for whole counts. */
function pluralForms(language: string): Set<string> {
  const rules = new Intl.PluralRules(language);
  const forms = new Set<string>();
  for (let count = 0; count < 200; count++) forms.add(rules.select(count));
  return forms;
}

/** Brand names and loanwords that are the same in English and in that language. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  all: ["claim.heading", "claim.successTitle"],
  es: ["pages.appsTitle", "debug.no"],
  pt: ["pages.appsTitle"],
  fil: ["email.label", "debug.chain", "debug.address", "dev.account"],
  id: ["email.label", "debug.title"],
  ja: ["email.placeholder"],
  ko: ["email.placeholder"],
  th: ["email.placeholder"],
};

describe("translations", () => {
  const english = flatten(load("en"));
  const baseKeys = (keys: Iterable<string>) => new Set([...keys].map((key) => key.replace(PLURAL, "")));

  it("has exactly the eight languages", () => {
    const files = readdirSync(dir).filter((file) => file.endsWith(".json")).map((file) => file.replace(".json", ""));
    expect(files.sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES.filter((language) => language !== "en"))("%s translates every string", (language) => {
    const strings = flatten(load(language));
    expect(baseKeys(strings.keys())).toEqual(baseKeys(english.keys()));
    const allowed = new Set([...(SAME_AS_ENGLISH.all ?? []), ...(SAME_AS_ENGLISH[language] ?? [])]);
    for (const [key, value] of strings) {
      expect(value.trim(), key).not.toBe("");
      const englishValue = english.get(key) ?? english.get(key.replace(PLURAL, "_other"));
      if (!allowed.has(key)) expect(value, `${language} ${key} is still English`).not.toBe(englishValue);
      const variables = (text: string) => [...text.matchAll(/{{(\w+)}}|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();
      expect(variables(value), `${language} ${key} keeps its placeholders`).toEqual(variables(englishValue ?? ""));
    }
  });

  it.each([...LANGUAGES])("%s has the plural forms its grammar needs", (language) => {
    const strings = flatten(load(language));
    const pluralBases = new Set([...english.keys()].filter((key) => PLURAL.test(key)).map((key) => key.replace(PLURAL, "")));
    for (const base of pluralBases) {
      for (const form of pluralForms(language)) expect(strings.has(`${base}_${form}`), `${language} ${base}_${form}`).toBe(true);
    }
  });
});
