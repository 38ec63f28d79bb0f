// A stand-in for World's POST /api/v2/minikit/send-notification (developer-portal web/api/v2/minikit/
// send-notification), as strict as World where the API can meet it, in World's order: another method or path is a 404;
// a request without an API key (the second word of its Authorization header) a 401 `unauthorized`; a body that is not
// JSON a 500 (World's `req.json()` throws); a body World's v2 schema refuses a 400 `validation_error`; a key World does
// not know (`api_` + base64 of `id:secret`, looked up by its id) a 404 `not_found`, one of another app a 403
// `invalid_app`, a wrong secret a 403 `invalid_api_key`. A request whose body never fully arrived (its sender died
// after the headers) is acted on by no one, as `req.json()` never yields it. A request World's upstream send throttles
// is answered 500 `internal_server_error`, never 429, and only once World's own retries are over: World tries the
// upstream 10 times (fetchWithRetry: 5 s each at most, 300 ms backoff doubling), then turns the last 429 into a 500 for
// the caller, about 2.5 minutes after the request. It stands for a verified app (no quota of 40 per 4 h). Used by the
// reminders bench and its test.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { worldSendNotificationProblems } from "@oro/clients";

export const SEND_NOTIFICATION_PATH = "/api/v2/minikit/send-notification";

/** What World waits between its 10 tries of a throttled upstream send: 300 ms doubling, nine times (153.3 s). */
export const WORLD_RETRY_BACKOFF_MS = Array.from({ length: 9 }, (_, attempt) => 300 * 2 ** attempt).reduce((sum, ms) => sum + ms, 0);

/** When World answers a throttled request: its 10 tries, each answered in `answerMs`, and the backoff between them. */
export const worldThrottledAnswerMs = (answerMs: number) => WORLD_RETRY_BACKOFF_MS + 10 * answerMs;

/** An API key as the developer portal issues it: `api_` and the base64 of `<key id>:<secret>`. */
export function worldApiKey(id: string, secret: string): string {
  return `api_${Buffer.from(`${id}:${secret}`, "utf8").toString("base64")}`;
}

/** The key id and secret of an API key (worldApiKey's inverse). */
function readApiKey(apiKey: string): { id: string | undefined; secret: string | undefined } {
  const [id, secret] = Buffer.from(apiKey.replace(/^api_/, ""), "base64").toString("utf8").split(":");
  return { id, secret };
}

export interface StandIn {
  server: Server;
  /** How many times each reminder's address arrived (index i for the address 0x…i). */
  arrivals: Uint8Array;
  requests: number;
  /** Requests World's upstream throttled: World answered them 500 and sent nothing. */
  throttled: number;
  /** Requests World's schema refuses (400), with why. */
  refused: string[];
  /** Requests without an API key (401). */
  unauthorized: number;
  /** Requests whose body never fully arrived: nothing of them was sent. */
  cutOff: number;
  firstAt: number;
  lastAt: number;
  received: number;
}

export interface StandInOptions {
  /** Addresses 0x…1 to 0x…reminders are counted in `arrivals`. */
  reminders: number;
  /** World answers after this long (it goes on sending whether the caller waits or not). */
  answerMs: number;
  /** Every n-th request finds World's upstream send throttling (World then answers 500, having sent nothing). */
  throttledEvery: number;
  /**
   * When World answers a throttled request: after its 10 tries (each answered in `answerMs` here) and the backoff
   * between them, as World does (the default); a test shortens it.
   */
  throttledAnswerMs?: number;
  /** The one app World knows here, and its API key (worldApiKey). */
  appId: string;
  apiKey: string;
}

/** The whole body, or undefined when the request ended before it did (the sender went away). */
async function wholeBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of request) chunks.push(chunk as Buffer);
  } catch {
    return undefined;
  }
  return request.complete ? Buffer.concat(chunks).toString("utf8") : undefined;
}

/** An address counts as arrived when its request is accepted. */
export function standInForWorld(options: StandInOptions): StandIn {
  const state: StandIn = {
    server: createServer(),
    arrivals: new Uint8Array(options.reminders + 1),
    requests: 0,
    throttled: 0,
    refused: [],
    unauthorized: 0,
    cutOff: 0,
    firstAt: 0,
    lastAt: 0,
    received: 0,
  };
  const known = readApiKey(options.apiKey);
  /** World's checks of the key, in its order: known (by its id), of this app, with the right secret. */
  const refuseKey = (apiKey: string, appId: string): { status: number; code: string } | undefined => {
    const { id, secret } = readApiKey(apiKey);
    if (id !== known.id) return { status: 404, code: "not_found" };
    if (appId !== options.appId) return { status: 403, code: "invalid_app" };
    if (secret !== known.secret) return { status: 403, code: "invalid_api_key" };
    return undefined;
  };
  state.server.on("request", (request, response) => {
    const send = (status: number, answer: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(answer));
    };
    if (request.method !== "POST" || request.url !== SEND_NOTIFICATION_PATH) return send(404, { code: "not_found" });
    void wholeBody(request).then((text) => {
      if (text === undefined) {
        state.cutOff += 1;
        return;
      }
      state.requests += 1;
      const apiKey = request.headers.authorization?.split(" ")[1];
      if (!apiKey) {
        state.unauthorized += 1;
        return send(401, { code: "unauthorized", detail: "API key is required." });
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return send(500, { code: "internal_server_error" });
      }
      const problems = worldSendNotificationProblems(parsed);
      if (problems.length > 0) {
        state.refused.push(problems.join("; "));
        return send(400, { code: "validation_error", detail: problems.join("; ") });
      }
      const keyRefused = refuseKey(apiKey, (parsed as { app_id: string }).app_id);
      if (keyRefused) {
        state.refused.push(keyRefused.code);
        return send(keyRefused.status, { code: keyRefused.code });
      }
      if (state.requests % options.throttledEvery === 0) {
        state.throttled += 1;
        // World retries its upstream's 429s, then answers the caller 500, never 429 (the route's own comment).
        const answerMs = options.throttledAnswerMs ?? worldThrottledAnswerMs(options.answerMs);
        setTimeout(() => send(500, { code: "internal_server_error", detail: "Server error occurred", attribute: "notification" }), answerMs);
        return;
      }
      const addresses = (parsed as { wallet_addresses: string[] }).wallet_addresses;
      for (const address of addresses) {
        const index = Number.parseInt(address.slice(2), 16);
        if (index >= 1 && index <= options.reminders) state.arrivals[index] = Math.min(255, (state.arrivals[index] ?? 0) + 1);
      }
      state.received += addresses.length;
      state.firstAt ||= Date.now();
      state.lastAt = Date.now();
      setTimeout(() => send(200, { success: true, result: addresses.map((walletAddress) => ({ walletAddress, sent: true })) }), options.answerMs);
    });
  });
  return state;
}
