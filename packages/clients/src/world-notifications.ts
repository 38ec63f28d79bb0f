/**
 * World's send-notification API (`POST /api/v2/minikit/send-notification` of the developer portal) refuses a
 * whole request that breaks any of these rules with 400 `validation_error`. They are written here once, from
 * World's own code (worldcoin/developer-portal `web/api/v2/minikit/send-notification/schema.ts`,
 * `web/lib/languages.ts`, `web/lib/schema/index.ts`), and every sender and stand-in checks against them: the API
 * before it sends, its development outbox, and the tests.
 */

/** The languages World accepts in `localisations` (its `formLanguagesList`); `en` must be present. */
export const WORLD_NOTIFICATION_LANGUAGES = [
  "en", "en_GB", "ca", "zh_CN", "fr", "de", "hi", "ja", "ko", "pl", "pt", "es", "es_419", "ms", "th", "id", "it", "zh_TW", "nl",
] as const;

export type WorldNotificationLanguage = (typeof WORLD_NOTIFICATION_LANGUAGES)[number];

/**
 * Some languages a World App may be set to that World's notification API does not list (Filipino, one of the
 * product's, among them): World delivers English to such a user. The simulator's device offers them, the reminders
 * bench gives them to some of its users.
 */
export const LANGUAGES_WORLD_LACKS = ["fil", "tr", "vi"] as const;

/** The languages a simulated World App may be set to: World's 19, then those it lacks (English delivered). */
export const WORLD_APP_DEVICE_LANGUAGES: readonly string[] = [...WORLD_NOTIFICATION_LANGUAGES, ...LANGUAGES_WORLD_LACKS];

export const WORLD_NOTIFICATION_LIMITS = {
  minAddresses: 1,
  maxAddresses: 1_000,
  titleLength: 30,
  /** A title with `${username}` may have this many characters besides it (a username takes up to 14). */
  titleLengthBesideUsername: 16,
  messageLength: 200,
} as const;

export const USERNAME_PLACEHOLDER = "${username}";

export function isWorldNotificationLanguage(language: string): language is WorldNotificationLanguage {
  return (WORLD_NOTIFICATION_LANGUAGES as readonly string[]).includes(language);
}

/**
 * The language World delivers a notification in to a World App set to `tag` (`fr`, `es-419`, `zh-Hant-TW`, `en_GB`):
 * World's own reading of a device's locale (developer-portal `web/lib/languages.ts`, `parseLocale`): by its first part,
 * Chinese Traditional for Taiwan and Simplified otherwise, Latin American Spanish for `419`, British English for `GB`,
 * and English for any language World does not list.
 */
export function worldLanguageOfDevice(tag: string): WorldNotificationLanguage {
  const [first = "", second, third] = tag.split(/[-_]/);
  const major = first.toLowerCase();
  if (major === "zh") {
    const traditional = second?.toUpperCase() === "TW" || (second?.toUpperCase() === "HANT" && third?.toUpperCase() === "TW");
    return traditional ? "zh_TW" : "zh_CN";
  }
  if (major === "es") return second === "419" ? "es_419" : "es";
  if (major === "en" && second?.toUpperCase() === "GB") return "en_GB";
  return isWorldNotificationLanguage(major) ? major : "en";
}

/**
 * Whether World delivers a request with these localisations to a World App set to `deviceLanguage`, and in which
 * text: the device's language in World's list (English for one it lacks), and nothing when the request has no text in
 * it (developer-docs `mini-apps/reference/api.mdx`: "If you don't specify a localization for the user's preferred
 * language, the notification will not be delivered", with a reason; World does not publish the reason's wording).
 */
export function worldDelivery<Text extends WorldNotificationLocalisation>(
  localisations: readonly Text[],
  deviceLanguage: string,
): { delivered: true; text: Text } | { delivered: false; language: WorldNotificationLanguage; reason: string } {
  const language = worldLanguageOfDevice(deviceLanguage);
  const text = localisations.find((entry) => entry.language === language);
  if (text) return { delivered: true, text };
  return { delivered: false, language, reason: `${NO_LOCALISATION_REASON}: ${language}` };
}

/** The per-address reason of a request without the user's language (the stand-ins' wording; World's is not published). */
export const NO_LOCALISATION_REASON = "No localisation for the user's World App language";

// World's character rules. Emojis are removed first (World uses the emoji-regex package; pictographs with their
// modifiers and joiners stand in for it here), then what is left must match.
const EMOJI = /(?:\p{Extended_Pictographic}|\p{Regional_Indicator})(?:\p{Emoji_Modifier}|\uFE0F|\u20E3)*(?:\u200D(?:\p{Extended_Pictographic})(?:\p{Emoji_Modifier}|\uFE0F)*)*/gu;
const TITLE_CHARACTERS =
  /^[\u3000-\u303F\u4E00-\u9FFF\u3040-\u309F\u30A0-\u30FF\uFF00-\uFFEF\p{Letter}\p{Mark}\p{Other_Punctuation}\s0-9+$]+$/u;
const MESSAGE_CHARACTERS =
  /^[\u3000-\u303F\u4E00-\u9FFF\u3040-\u309F\u30A0-\u30FF\uFF00-\uFFEF\p{Letter}\p{Mark}\p{Punctuation}\s0-9+$]*[^{\\}]$/u;

function charactersAllowed(text: string, pattern: RegExp): boolean {
  const rest = text.replace(USERNAME_PLACEHOLDER, "").replace(EMOJI, "");
  return rest.length === 0 || pattern.test(rest);
}

export interface WorldNotificationLocalisation {
  language: string;
  title: string;
  message: string;
}

/** Why World would refuse this title, or undefined. Lengths are counted as World counts them (UTF-16 units). */
export function titleProblem(title: string): string | undefined {
  if (title.length === 0) return "a title is required";
  if (title.length > WORLD_NOTIFICATION_LIMITS.titleLength) return `a title has at most ${WORLD_NOTIFICATION_LIMITS.titleLength} characters`;
  if (title.includes(USERNAME_PLACEHOLDER) && title.replace(USERNAME_PLACEHOLDER, "").length > WORLD_NOTIFICATION_LIMITS.titleLengthBesideUsername) {
    return `a title with ${USERNAME_PLACEHOLDER} has at most ${WORLD_NOTIFICATION_LIMITS.titleLengthBesideUsername} other characters`;
  }
  if (!charactersAllowed(title, TITLE_CHARACTERS)) return "a title may hold letters, numbers, spaces, emojis and only some punctuation (no dashes or brackets)";
  return undefined;
}

/** Why World would refuse this message, or undefined. */
export function messageProblem(message: string): string | undefined {
  if (message.length === 0) return "a message is required";
  if (message.length > WORLD_NOTIFICATION_LIMITS.messageLength) return `a message has at most ${WORLD_NOTIFICATION_LIMITS.messageLength} characters`;
  if (!charactersAllowed(message, MESSAGE_CHARACTERS)) return "a message may hold letters, numbers, punctuation, spaces and emojis, and may not end in { } or \\";
  return undefined;
}

/** A send-notification request body as World's v2 schema reads it. */
export interface WorldSendNotificationBody {
  app_id: string;
  wallet_addresses: string[];
  localisations: WorldNotificationLocalisation[];
  mini_app_path: string;
}

/**
 * The other path World's schema takes: its production deep face link (https://world.org/verify?t=deepface&i=…&k=…).
 * Read without URL, which this package's build (no DOM, no Node types) does not have.
 */
function isDeepFaceLink(path: string): boolean {
  const query = /^https:\/\/world\.org\/verify\?([^#]*)/i.exec(path)?.[1];
  if (query === undefined) return false;
  // The first value of each parameter, as URLSearchParams.get reads it.
  const params = new Map<string, string>();
  try {
    for (const pair of query.split("&")) {
      const at = pair.includes("=") ? pair.indexOf("=") : pair.length;
      const [key, value] = [pair.slice(0, at), pair.slice(at + 1)].map((part) => decodeURIComponent(part.replace(/\+/g, " ")));
      if (key && !params.has(key)) params.set(key, value ?? "");
    }
  } catch {
    return false;
  }
  return params.get("t") === "deepface" && Boolean(params.get("i")) && Boolean(params.get("k"));
}

/**
 * Every reason World would answer this request with 400 (empty when it would accept it). The body is read as JSON,
 * so unknown keys are refused as World's strict schema does.
 */
export function worldSendNotificationProblems(body: unknown): string[] {
  const problems: string[] = [];
  if (typeof body !== "object" || body === null) return ["the body is not an object"];
  const record = body as Record<string, unknown>;
  const known = new Set(["app_id", "wallet_addresses", "localisations", "mini_app_path", "draft_id"]);
  for (const key of Object.keys(record)) if (!known.has(key)) problems.push(`unknown field ${key}`);
  const appId = record.app_id;
  if (typeof appId !== "string" || appId === "") problems.push("app_id is required");
  const addresses = record.wallet_addresses;
  if (!Array.isArray(addresses)) problems.push("wallet_addresses is required");
  else {
    if (addresses.length < WORLD_NOTIFICATION_LIMITS.minAddresses || addresses.length > WORLD_NOTIFICATION_LIMITS.maxAddresses) {
      problems.push(`wallet_addresses holds ${WORLD_NOTIFICATION_LIMITS.minAddresses} to ${WORLD_NOTIFICATION_LIMITS.maxAddresses} addresses, not ${addresses.length}`);
    }
    if (addresses.some((address) => typeof address !== "string" || address.length !== 42)) problems.push("each wallet address is 42 characters");
  }
  const path = record.mini_app_path;
  const appIdText = typeof appId === "string" ? appId : "";
  if (typeof path !== "string" || !(path.startsWith(`worldapp://mini-app?app_id=${appIdText}`) || isDeepFaceLink(path))) {
    problems.push("mini_app_path must start worldapp://mini-app?app_id=<the app id>");
  }
  const localisations = record.localisations;
  if (!Array.isArray(localisations)) {
    problems.push("localisations is required");
    return problems;
  }
  for (const [index, entry] of localisations.entries()) {
    const localisation = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    const where = `localisations[${index}]`;
    if (typeof localisation.language !== "string" || !isWorldNotificationLanguage(localisation.language)) {
      problems.push(`${where}.language ${JSON.stringify(localisation.language)} is not one World accepts`);
    }
    const title = typeof localisation.title === "string" ? titleProblem(localisation.title) : "a title is required";
    if (title) problems.push(`${where}.title: ${title}`);
    const message = typeof localisation.message === "string" ? messageProblem(localisation.message) : "a message is required";
    if (message) problems.push(`${where}.message: ${message}`);
  }
  if (!localisations.some((entry) => (entry as { language?: unknown } | null)?.language === "en")) problems.push("localisations must contain en");
  return problems;
}
