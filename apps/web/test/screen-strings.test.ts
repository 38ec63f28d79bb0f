import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../src/i18n/languages";

/** The `screens` namespace (src/i18n/screens/): the strings of the screens that load on demand, in all eight languages. */
type Tree = { [key: string]: string | Tree };
const dir = join(import.meta.dirname, "../src/i18n/screens");
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
const base = (keys: Iterable<string>) => new Set([...keys].map((key) => key.replace(PLURAL, "")));
const variables = (text: string) => [...text.matchAll(/{{(\w+)}}|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();
/** Brand names and loanwords that stay as they are: in every language, or in one (SAME_IN_LANGUAGE). */
const SAME_AS_ENGLISH = new Set(["apps.title", "rewards.swapNow", "announcements.halvingTeaser.title", "tournament.title", "share.amount", "share.successTitle"]);
const SAME_IN_LANGUAGE: Record<string, string[]> = { es: ["debug.no"], fil: ["debug.chain", "debug.address"], id: ["debug.title"] };

describe("the screens' strings", () => {
  const english = flatten(load("en"));

  it("exist for exactly the eight languages", () => {
    expect(readdirSync(dir).map((file) => file.replace(".json", "")).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES.filter((language) => language !== "en"))("%s translates every string and keeps its placeholders", (language) => {
    const strings = flatten(load(language));
    expect(base(strings.keys())).toEqual(base(english.keys()));
    for (const [key, value] of strings) {
      const englishValue = english.get(key) ?? english.get(key.replace(PLURAL, "_other")) ?? "";
      expect(value.trim(), key).not.toBe("");
      const same = SAME_AS_ENGLISH.has(key.replace(PLURAL, "")) || (SAME_IN_LANGUAGE[language] ?? []).includes(key);
      if (!same) expect(value, `${language} ${key} is still English`).not.toBe(englishValue);
      expect(variables(value), `${language} ${key}`).toEqual(variables(englishValue));
    }
  });

  it.each([...LANGUAGES])("%s has the plural forms its grammar needs", (language) => {
    const strings = flatten(load(language));
    const rules = new Intl.PluralRules(language);
    const forms = new Set(Array.from({ length: 200 }, (_, count) => rules.select(count)));
    for (const key of new Set([...english.keys()].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, "")))) {
      for (const form of forms) expect(strings.has(`${key}_${form}`), `${language} ${key}_${form}`).toBe(true);
    }
  });
});
