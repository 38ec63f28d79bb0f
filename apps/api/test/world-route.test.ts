import { describe, expect, it } from "vitest";
import { CLAIM_REMINDER_TEXTS, WORLD_NOTIFICATION_LANGUAGES } from "@oro/clients";
import { claimReminderLocalisations } from "../src/services/notifications/messages.js";
import { createWorldRoute, UNVERIFIED_APP_WINDOW_MS, WORLD_RETRY_BACKOFF_MS, worldApiKey, type WorldApp, type WorldUpstream } from "../src/services/notifications/world-route.js";

// World's send-notification route (developer-portal web/api/v2/minikit/send-notification/index.ts) as the stand-ins
// play it: the development outbox, the reminders bench's server and the tests. Each rule here is one the stand-ins did
// not follow before (they accepted every request of a known key, in every state of the app, and delivered to everyone).
const appId = "app_0123456789abcdef";
const apiKey = worldApiKey("key_1", "secret");
const bearer = `Bearer ${apiKey}`;
const address = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
const request = (addresses: string[], localisations = claimReminderLocalisations()) =>
  JSON.stringify({ app_id: appId, wallet_addresses: addresses, localisations, mini_app_path: `worldapp://mini-app?app_id=${appId}&path=%2F` });
const app = (change: Partial<WorldApp> = {}): WorldApp => ({ appId, apiKey, keyActive: true, verified: true, perUserPerDay: 1, listing: "ok", paused: false, ...change });

describe("World's send-notification route, as its stand-ins answer", () => {
  it("refuses in World's order with World's codes and statuses, sending nothing", () => {
    const refusal = (change: Partial<WorldApp>, authorization = bearer) => {
      const answer = createWorldRoute({ app: app(change) }).answer(authorization, request([address(1)]));
      expect(answer.deliveries).toEqual([]);
      return [answer.status, (answer.body as { code?: string }).code];
    };
    expect(refusal({}, "Bearer")).toEqual([401, "unauthorized"]);
    expect(refusal({}, `Bearer ${worldApiKey("key_2", "secret")}`)).toEqual([404, "not_found"]);
    expect(refusal({ keyActive: false })).toEqual([400, "api_key_inactive"]);
    expect(refusal({}, `Bearer ${worldApiKey("key_1", "wrong")}`)).toEqual([403, "invalid_api_key"]);
    expect(refusal({ listing: "app_not_found" })).toEqual([404, "app_not_found"]);
    expect(refusal({ listing: "duplicate_app" })).toEqual([400, "duplicate_app"]);
    expect(refusal({ listing: "external_app_not_allowed" })).toEqual([400, "external_app_not_allowed"]);
    expect(refusal({ perUserPerDay: 0 })).toEqual([400, "not_allowed"]);
    expect(refusal({ paused: true })).toEqual([400, "paused"]);
    expect(refusal({ perUserPerDay: 0, paused: true })).toEqual([400, "not_allowed"]);
    // An inactive key is refused before the app is looked at, as World checks the key first.
    expect(refusal({ keyActive: false, listing: "app_not_found" })).toEqual([400, "api_key_inactive"]);
    const fil = JSON.stringify({ app_id: appId, wallet_addresses: [address(1)], localisations: [{ language: "fil", title: "ORO", message: "Mag-claim na!" }], mini_app_path: `worldapp://mini-app?app_id=${appId}&path=%2F` });
    const invalid = createWorldRoute({ app: app() }).answer(bearer, fil);
    expect([invalid.status, (invalid.body as { code: string }).code]).toEqual([400, "validation_error"]);
    expect(createWorldRoute({ app: app() }).answer(bearer, "{not json").status).toBe(500);
  });

  it("holds an unverified app to 40 notifications per 4-hour window, refusing a whole request that would pass it", () => {
    let now = 1_000_000;
    const route = createWorldRoute({ app: app({ verified: false }), now: () => now });
    const batch = (from: number, count: number) => Array.from({ length: count }, (_, i) => address(from + i));
    expect(route.answer(bearer, request(batch(1, 41))).body).toMatchObject({ code: "unverified_app_limit_reached" });
    expect(route.answer(bearer, request(batch(1, 30))).status).toBe(200);
    // 30 + 11 > 40: refused whole, and the refused request counts nothing.
    expect(route.answer(bearer, request(batch(31, 11))).body).toMatchObject({ code: "unverified_app_limit_reached" });
    expect(route.answer(bearer, request(batch(31, 10))).status).toBe(200);
    expect(route.window()).toEqual({ count: 40, endsAt: 1_000_000 + UNVERIFIED_APP_WINDOW_MS });
    expect(route.answer(bearer, request([address(99)])).status).toBe(400);
    // The window began with its first notification; once it is over, 40 more.
    now += UNVERIFIED_APP_WINDOW_MS;
    expect(route.answer(bearer, request(batch(41, 40))).status).toBe(200);
    // A request refused for the per-day setting still counted: World increments before that check.
    const counted = createWorldRoute({ app: app({ verified: false, perUserPerDay: 0 }), now: () => now });
    expect(counted.answer(bearer, request(batch(1, 5))).body).toMatchObject({ code: "not_allowed" });
    expect(counted.window()?.count).toBe(5);
    const paused = createWorldRoute({ app: app({ verified: false, paused: true }), now: () => now });
    expect(paused.answer(bearer, request(batch(1, 5))).body).toMatchObject({ code: "paused" });
    expect(paused.window()?.count).toBe(5);
  });

  it("delivers in the user's World App language, English to one World lacks, nothing where the request lacks it", () => {
    const devices: Record<string, string> = { [address(1)]: "fr-FR", [address(2)]: "es-419", [address(3)]: "tr", [address(4)]: "zh-Hant-TW" };
    const route = createWorldRoute({ app: app(), deviceOf: (wallet) => ({ language: devices[wallet] ?? "en", notifications: wallet !== address(5) }) });
    const all = route.answer(bearer, request([1, 2, 3, 4, 5].map(address)));
    expect(all.status).toBe(200);
    expect(all.deliveries.map(({ sent, language, text, reason }) => ({ sent, language, title: text?.title, reason }))).toEqual([
      { sent: true, language: "fr", title: CLAIM_REMINDER_TEXTS.fr.title, reason: undefined },
      { sent: true, language: "es_419", title: CLAIM_REMINDER_TEXTS.es_419.title, reason: undefined },
      { sent: true, language: "en", title: CLAIM_REMINDER_TEXTS.en.title, reason: undefined },
      { sent: true, language: "zh_TW", title: CLAIM_REMINDER_TEXTS.zh_TW.title, reason: undefined },
      { sent: false, language: "en", title: undefined, reason: "User has notification disabled for World App" },
    ]);
    // The request the API sent before: its seven languages. A user in French or Latin American Spanish got nothing.
    const seven = claimReminderLocalisations().filter((entry) => ["en", "es", "id", "ja", "ko", "pt", "th"].includes(entry.language));
    const before = route.answer(bearer, request([1, 2, 3].map(address), seven));
    expect(before.body).toEqual({
      success: true,
      status: 200,
      result: [
        { walletAddress: address(1), sent: false, reason: "No localisation for the user's World App language: fr" },
        { walletAddress: address(2), sent: false, reason: "No localisation for the user's World App language: es_419" },
        { walletAddress: address(3), sent: true },
      ],
    });
    expect(WORLD_NOTIFICATION_LANGUAGES).toHaveLength(19);
  });

  it("answers as World does when its upstream throttles, never answers, or refuses: its statuses, after its tries", () => {
    let upstream: WorldUpstream = "throttled";
    const route = createWorldRoute({ app: app(), upstream: () => upstream, throttledTryMs: 100 });
    const throttled = route.answer(bearer, request([address(1)]));
    // fetchWithRetry: 10 tries, 300 ms backoff doubling between them (153.3 s), each try refused in 100 ms here.
    expect(WORLD_RETRY_BACKOFF_MS).toBe(153_300);
    expect(throttled).toMatchObject({ status: 500, body: { code: "internal_server_error" }, afterMs: 154_300, deliveries: [] });
    upstream = "never-answers";
    const silent = route.answer(bearer, request([address(1)]));
    // Each try times out after 5 s: about 203 s, and the upstream may have delivered.
    expect(silent).toMatchObject({ status: 500, afterMs: 203_300, deliveries: [{ address: address(1), sent: true }] });
    upstream = { status: 400, code: "bad_request" };
    expect(route.answer(bearer, request([address(1)]))).toMatchObject({ status: 400, body: { code: "bad_request" }, afterMs: 0 });
    upstream = { status: 503, code: "unavailable" };
    expect(route.answer(bearer, request([address(1)]))).toMatchObject({ status: 503, afterMs: 154_300 });
  });
});
