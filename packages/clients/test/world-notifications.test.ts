import { describe, expect, it } from "vitest";
import { messageProblem, titleProblem, worldDelivery, worldLanguageOfDevice, worldSendNotificationProblems } from "../src/world-notifications.js";

const APP_ID = "app_staging_oro_local";
const ADDRESS = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

function body(localisations: { language: string; title: string; message: string }[], extra: Record<string, unknown> = {}) {
  return {
    app_id: APP_ID,
    wallet_addresses: [ADDRESS],
    localisations,
    mini_app_path: `worldapp://mini-app?app_id=${APP_ID}&path=%2F`,
    ...extra,
  };
}

const EN = { language: "en", title: "Your ORO is ready", message: "Your daily ORO claim is open. Claim now to keep your streak going!" };

// World's rules as its developer portal checks them (web/api/v2/minikit/send-notification/schema.ts).
describe("World's send-notification rules", () => {
  it("accept a request World accepts", () => {
    expect(worldSendNotificationProblems(body([EN, { language: "ja", title: "ORO を受け取れます", message: "今日の ORO を受け取れるようになりました！" }]))).toEqual([]);
  });

  it("refuse the whole request for a language World lacks, as the one the API sent before (fil)", () => {
    const problems = worldSendNotificationProblems(body([EN, { language: "fil", title: "Handa na ang ORO mo", message: "Mag-claim na!" }]));
    expect(problems).toEqual(['localisations[1].language "fil" is not one World accepts']);
  });

  it("require en, 1 to 1,000 addresses of 42 characters, the app's mini-app path, and no unknown field", () => {
    expect(worldSendNotificationProblems(body([{ ...EN, language: "es" }]))).toContain("localisations must contain en");
    expect(worldSendNotificationProblems(body([EN], { wallet_addresses: [] }))).toContain("wallet_addresses holds 1 to 1000 addresses, not 0");
    expect(worldSendNotificationProblems(body([EN], { wallet_addresses: Array.from({ length: 1_001 }, () => ADDRESS) }))).toContain("wallet_addresses holds 1 to 1000 addresses, not 1001");
    expect(worldSendNotificationProblems(body([EN], { wallet_addresses: ["0x1234"] }))).toContain("each wallet address is 42 characters");
    expect(worldSendNotificationProblems(body([EN], { mini_app_path: "https://oro.example/" }))).toContain("mini_app_path must start worldapp://mini-app?app_id=<the app id>");
    expect(worldSendNotificationProblems(body([EN], { mini_app_path: "worldapp://mini-app?app_id=app_other" }))).toContain("mini_app_path must start worldapp://mini-app?app_id=<the app id>");
    // Only World App's scheme: worldid:// is not one World's schema takes.
    expect(worldSendNotificationProblems(body([EN], { mini_app_path: `worldid://mini-app?app_id=${APP_ID}&path=%2F` }))).toContain("mini_app_path must start worldapp://mini-app?app_id=<the app id>");
    // World's other path, its deep face link, whole (both i and k), on world.org.
    expect(worldSendNotificationProblems(body([EN], { mini_app_path: "https://world.org/verify?t=deepface&i=abc&k=def" }))).toEqual([]);
    expect(worldSendNotificationProblems(body([EN], { mini_app_path: "https://world.org/verify?t=deepface&i=abc" }))).toContain("mini_app_path must start worldapp://mini-app?app_id=<the app id>");
    expect(worldSendNotificationProblems(body([EN], { mini_app_path: "https://example.org/verify?t=deepface&i=abc&k=def" }))).toContain("mini_app_path must start worldapp://mini-app?app_id=<the app id>");
    expect(worldSendNotificationProblems(body([EN], { title: "x" }))).toContain("unknown field title");
  });

  it("bound titles at 30 characters (16 beside ${username}) and messages at 200", () => {
    expect(titleProblem("x".repeat(30))).toBeUndefined();
    expect(titleProblem("x".repeat(31))).toMatch(/at most 30/);
    expect(titleProblem("${username}, ORO is ready")).toBeUndefined();
    expect(titleProblem("${username} your ORO is here")).toMatch(/at most 16 other characters/);
    expect(messageProblem("y".repeat(200))).toBeUndefined();
    expect(messageProblem("y".repeat(201))).toMatch(/at most 200/);
  });

  it("allow only World's characters: no dash or bracket in a title, no trailing brace in a message; emojis anywhere", () => {
    expect(titleProblem("Keep your 5-day streak")).toMatch(/no dashes or brackets/);
    expect(titleProblem("Keep your streak (5 days)")).toMatch(/no dashes or brackets/);
    expect(titleProblem("🔥 Keep your 5 day streak!")).toBeUndefined();
    expect(messageProblem("Your 5-day streak ends soon (claim now) 🔥")).toBeUndefined();
    expect(messageProblem("Claim now {")).toMatch(/may not end/);
    expect(messageProblem("<b>Claim</b>")).toMatch(/letters, numbers/);
  });
});

// World's reading of a device's language (developer-portal web/lib/languages.ts parseLocale) and what a user then gets.
describe("the language World delivers in", () => {
  it("reads a World App's language as World does: regions it knows, English for a language it lacks", () => {
    const read = (tags: string[]) => tags.map(worldLanguageOfDevice);
    expect(read(["fr", "fr-CA", "de_DE", "es", "es-ES", "es-419", "es_419", "en", "en-US", "en-GB", "en_gb"])).toEqual(["fr", "fr", "de", "es", "es", "es_419", "es_419", "en", "en", "en_GB", "en_GB"]);
    expect(read(["zh", "zh-CN", "zh-Hans", "zh-TW", "zh-Hant-TW", "zh-Hant-HK", "pt-BR", "PL"])).toEqual(["zh_CN", "zh_CN", "zh_CN", "zh_TW", "zh_TW", "zh_CN", "pt", "pl"]);
    expect(read(["fil", "tl", "tr", "vi", "", "xx"])).toEqual(["en", "en", "en", "en", "en", "en"]);
  });

  it("delivers the text of the user's language, English to a language World lacks, and nothing when the request lacks the user's", () => {
    const texts = [EN, { language: "fr", title: "Votre ORO est prêt", message: "Récupérez-le !" }];
    expect(worldDelivery(texts, "fr-FR")).toEqual({ delivered: true, text: texts[1] });
    expect(worldDelivery(texts, "fil")).toEqual({ delivered: true, text: EN });
    expect(worldDelivery(texts, "es-419")).toEqual({ delivered: false, language: "es_419", reason: "No localisation for the user's World App language: es_419" });
  });
});
