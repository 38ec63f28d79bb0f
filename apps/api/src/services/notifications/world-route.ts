import { worldDelivery, worldSendNotificationProblems, type WorldNotificationLocalisation } from "@oro/clients";

/**
 * World's `POST /api/v2/minikit/send-notification` as the developer portal's code answers it
 * (worldcoin/developer-portal `web/api/v2/minikit/send-notification/index.ts`, `schema.ts`, `web/lib/utils.ts`
 * fetchWithRetry), for the stand-ins of World: the development outbox, the reminders bench's server and the tests. In
 * World's order: no API key 401 `unauthorized`; a body that is not JSON 500; a body its schema refuses 400
 * `validation_error`; the key unknown 404 `not_found`, inactive 400 `api_key_inactive`, of another app 403
 * `invalid_app`, with a wrong secret 403 `invalid_api_key`; the app unknown 404 `app_not_found`, listed twice and not
 * verified 400 `duplicate_app`, external 400 `external_app_not_allowed`; an unverified app over 40 notifications in its
 * 4-hour window 400 `unverified_app_limit_reached` (the window's count grows by the request's addresses before the
 * next check, as World's Redis counter does); a per-day setting of 0 400 `not_allowed`; notifications paused by World
 * (an open rate under 10%: 7 days) 400 `paused`. Then World sends through its
 * upstream, trying 10 times (5 s each at most, 300 ms backoff doubling): a throttled upstream (429 every time) is
 * answered 500 after its tries, an upstream that never answers 500 after ~203 s (it may have delivered), an upstream
 * 4xx at once with its status, an upstream 5xx after the tries with its status. Otherwise 200 with a result per
 * address: sent, or not with a reason (the user disabled the app's notifications; the request has no text in the
 * language of the user's World App, developer-docs `mini-apps/reference/api.mdx`).
 */

/** World's tries of its upstream send: 10, with 300 ms of backoff doubling between them (153.3 s in all). */
export const WORLD_UPSTREAM_TRIES = 10;
export const WORLD_RETRY_BACKOFF_MS = Array.from({ length: WORLD_UPSTREAM_TRIES - 1 }, (_, attempt) => 300 * 2 ** attempt).reduce((sum, ms) => sum + ms, 0);
/** fetchWithRetry's timeout of each try. */
export const WORLD_UPSTREAM_TRY_TIMEOUT_MS = 5_000;
/** An unverified app's quota: this many notifications (addresses) per window. */
export const UNVERIFIED_APP_LIMIT = 40;
export const UNVERIFIED_APP_WINDOW_MS = 4 * 3_600_000;
/** The developer docs' reason for a user who has not allowed the app's notifications. */
export const NOTIFICATIONS_DISABLED_REASON = "User has notification disabled for World App";

/** When World answers a request whose upstream throttled every try: each try answered in `tryMs`, and the backoff. */
export const worldThrottledAnswerMs = (tryMs: number) => WORLD_RETRY_BACKOFF_MS + WORLD_UPSTREAM_TRIES * tryMs;

/** An API key as the developer portal issues it: `api_` and the base64 of `<key id>:<secret>`. */
export function worldApiKey(id: string, secret: string): string {
  return `api_${Buffer.from(`${id}:${secret}`, "utf8").toString("base64")}`;
}

function readApiKey(apiKey: string): { id: string | undefined; secret: string | undefined } {
  const [id, secret] = Buffer.from(apiKey.replace(/^api_/, ""), "base64").toString("utf8").split(":");
  return { id, secret };
}

/** The app as World's developer portal holds it. */
export interface WorldApp {
  appId: string;
  apiKey: string;
  keyActive: boolean;
  verified: boolean;
  /** The per-day setting (0, 1, 2, unlimited): 0 refuses every request. */
  perUserPerDay: number | null;
  /** World's record of the app, when not the usual one: unknown, listed twice without a verified one, or external. */
  listing: "ok" | "app_not_found" | "duplicate_app" | "external_app_not_allowed";
  /** World paused the app's notifications (their average open rate fell below 10%): every request refused for 7 days. */
  paused: boolean;
}

/** The portal's settings of an app in good standing: key active, verified, no daily cap, listed, not paused. */
export const USUAL_WORLD_APP_SETTINGS = { keyActive: true, verified: true, perUserPerDay: null, listing: "ok", paused: false } as const satisfies Omit<WorldApp, "appId" | "apiKey">;

/** An app in good standing as World's developer portal holds it, with the settings a caller changes. */
export function usualWorldApp(appId: string, apiKey: string, change: Partial<Omit<WorldApp, "appId" | "apiKey">> = {}): WorldApp {
  return { appId, apiKey, ...USUAL_WORLD_APP_SETTINGS, ...change };
}

/** What World's upstream send does with a request. */
export type WorldUpstream = "delivers" | "throttled" | "never-answers" | { status: number; code: string };

/** A World App: its language and whether its user allowed the app's notifications. */
export interface WorldAppDevice {
  language: string;
  notifications: boolean;
}

/** One address of a request World's upstream took, and what its user got. */
export interface WorldDeliveryResult {
  address: string;
  sent: boolean;
  /** The language World chose for the user (the text shown), when known. */
  language: string;
  text?: WorldNotificationLocalisation | undefined;
  reason?: string | undefined;
}

export interface WorldAnswer {
  status: number;
  body: unknown;
  /** How long World takes to answer (its tries of a throttled or silent upstream; 0 otherwise). */
  afterMs: number;
  /** The addresses World's upstream took, each delivered or not; empty when the request was refused. */
  deliveries: WorldDeliveryResult[];
}

export interface WorldRouteOptions {
  /** The app World knows (a copy is kept: `settings` changes it). */
  app: WorldApp;
  /** Each address's World App; an address it does not know gets `defaultDevice`. */
  deviceOf?: (address: string) => WorldAppDevice | undefined;
  /** What World's upstream does with the n-th request (1, 2, …); default it delivers. */
  upstream?: (requestNumber: number) => WorldUpstream;
  /** How long each of World's upstream tries takes to be refused when throttled (default 100 ms). */
  throttledTryMs?: number;
  now?: () => number;
}

const refusal = (status: number, code: string, detail: string, attribute: string | null): WorldAnswer => ({
  status,
  body: { code, detail, attribute },
  afterMs: 0,
  deliveries: [],
});

export type WorldRoute = ReturnType<typeof createWorldRoute>;

export function createWorldRoute(options: WorldRouteOptions) {
  const app: WorldApp = { ...options.app };
  const now = options.now ?? (() => Date.now());
  /** World's Redis counter of an unverified app: notifications in the window that began at its first. */
  let window: { count: number; endsAt: number } | undefined;
  let requests = 0;

  function device(address: string, fallbackLanguage: string): WorldAppDevice {
    return options.deviceOf?.(address.toLowerCase()) ?? { language: fallbackLanguage, notifications: true };
  }

  /**
   * World's answer to a request with this Authorization header and body text. `fallbackLanguage` is the World App
   * language of an address the stand-in has not been told about.
   */
  function answer(authorization: string | undefined, text: string, fallbackLanguage: (address: string) => string = () => "en"): WorldAnswer {
    const apiKey = authorization?.split(" ")[1];
    if (!apiKey) return refusal(401, "unauthorized", "API key is required.", "api_key");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { status: 500, body: "Internal Server Error", afterMs: 0, deliveries: [] };
    }
    const problems = worldSendNotificationProblems(body);
    if (problems.length > 0) return refusal(400, "validation_error", problems.join("; "), "request_body");
    const request = body as { app_id: string; wallet_addresses: string[]; localisations: WorldNotificationLocalisation[] };
    const known = readApiKey(app.apiKey);
    const given = readApiKey(apiKey);
    if (given.id !== known.id) return refusal(404, "not_found", "API key not found.", "api_key");
    if (!app.keyActive) return refusal(400, "api_key_inactive", "API key is inactive.", "api_key");
    if (request.app_id !== app.appId) return refusal(403, "invalid_app", "API key is not valid for this app.", "api_key");
    if (given.secret !== known.secret) return refusal(403, "invalid_api_key", "API key is not valid.", "api_key");
    if (app.listing === "app_not_found") return refusal(404, "app_not_found", "App not found", "app");
    if (app.listing === "duplicate_app") return refusal(400, "duplicate_app", "Invalid app configuration", "app");
    if (app.listing === "external_app_not_allowed") return refusal(400, "external_app_not_allowed", "Notifications are not available for external apps", "app");
    if (!app.verified) {
      const at = now();
      if (window && window.endsAt <= at) window = undefined;
      const count = window?.count ?? 0;
      if (count + request.wallet_addresses.length > UNVERIFIED_APP_LIMIT) return refusal(400, "unverified_app_limit_reached", "Unverified app limit reached", "notifications");
      window = { count: count + request.wallet_addresses.length, endsAt: window?.endsAt ?? at + UNVERIFIED_APP_WINDOW_MS };
    }
    if (app.perUserPerDay === 0) return refusal(400, "not_allowed", "Notifications not enabled for this app", null);
    if (app.paused) return refusal(400, "paused", "Notifications are paused for this app. Your app had average open rate below 10% which resulted in a 7day pause.", null);
    requests += 1;
    const upstream = options.upstream?.(requests) ?? "delivers";
    const serverError = { code: "internal_server_error", detail: "Server error occurred", attribute: "notification" };
    if (upstream === "throttled") return { status: 500, body: serverError, afterMs: worldThrottledAnswerMs(options.throttledTryMs ?? 100), deliveries: [] };
    const deliveries = request.wallet_addresses.map((address): WorldDeliveryResult => {
      const user = device(address, fallbackLanguage(address));
      if (!user.notifications) return { address, sent: false, language: user.language, reason: NOTIFICATIONS_DISABLED_REASON };
      const delivery = worldDelivery(request.localisations, user.language);
      return delivery.delivered
        ? { address, sent: true, language: delivery.text.language, text: delivery.text }
        : { address, sent: false, language: delivery.language, reason: delivery.reason };
    });
    // The upstream never answered World: World gives up with a 500 after its tries, and the upstream may have sent.
    if (upstream === "never-answers") {
      return { status: 500, body: serverError, afterMs: worldThrottledAnswerMs(WORLD_UPSTREAM_TRY_TIMEOUT_MS), deliveries };
    }
    if (upstream !== "delivers") {
      const after = upstream.status >= 500 ? worldThrottledAnswerMs(options.throttledTryMs ?? 100) : 0;
      return { status: upstream.status, body: { code: upstream.code, detail: "Server error occurred", attribute: "notification" }, afterMs: after, deliveries: [] };
    }
    const result = deliveries.map(({ address, sent, reason }) => (sent ? { walletAddress: address, sent } : { walletAddress: address, sent, reason }));
    return { status: 200, body: { success: true, status: 200, result }, afterMs: 0, deliveries };
  }

  return {
    answer,
    /** Changes World's record of the app (an operator in the developer portal). */
    settings(change: Partial<Omit<WorldApp, "appId" | "apiKey">>) {
      Object.assign(app, change);
    },
    get app(): Readonly<WorldApp> {
      return app;
    },
    /** The unverified app's window: its count and when it ends (none while no window is open). */
    window(): { count: number; endsAt: number } | undefined {
      return window && window.endsAt > now() ? { ...window } : undefined;
    },
  };
}
