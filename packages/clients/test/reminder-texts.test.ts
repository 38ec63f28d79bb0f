import { describe, expect, it } from "vitest";
import { CLAIM_REMINDER_TEXTS, STREAK_AT_RISK_TEXTS } from "../src/reminder-texts.js";
import { messageProblem, titleProblem, USERNAME_PLACEHOLDER, WORLD_NOTIFICATION_LANGUAGES } from "../src/world-notifications.js";

// A request without the text of a user's World App language reaches that user not at all (developer-docs
// mini-apps/reference/api.mdx): every reminder has all of World's languages, each within World's rules.
describe.each([
  ["the claim reminder", CLAIM_REMINDER_TEXTS],
  ["the streak-at-risk nudge", STREAK_AT_RISK_TEXTS],
])("%s", (_name, texts) => {
  it("has a text in every language World delivers in, and no other", () => {
    expect(Object.keys(texts).sort()).toEqual([...WORLD_NOTIFICATION_LANGUAGES].sort());
  });

  it("keeps every title and message within World's limits and character rules, with the user's name in the message", () => {
    for (const language of WORLD_NOTIFICATION_LANGUAGES) {
      const { title, message } = texts[language];
      expect(titleProblem(title), `${language} title`).toBeUndefined();
      expect(messageProblem(message), `${language} message`).toBeUndefined();
      expect(message.startsWith(USERNAME_PLACEHOLDER), language).toBe(true);
    }
  });

  it("is translated, not English copied: each language's message is its own, British English and Latin American Spanish too", () => {
    const messages = WORLD_NOTIFICATION_LANGUAGES.map((language) => texts[language].message);
    expect(new Set(messages).size).toBe(messages.length);
    // Titles too, apart from British English, which may say what American English says.
    const englishTitled = WORLD_NOTIFICATION_LANGUAGES.filter((language) => !language.startsWith("en") && texts[language].title === texts.en.title);
    expect(englishTitled).toEqual([]);
    // Translations are not in Latin letters alone where the language is not written so.
    for (const language of ["zh_CN", "zh_TW", "ja", "ko", "hi", "th"] as const) expect(texts[language].message, language).toMatch(/[^\p{Script=Latin}\p{P}\s\d$]/u);
  });
});
