// A stand-in for World's POST /api/v2/minikit/send-notification over HTTP, for the reminders bench and its test: World's
// route as src/services/notifications/world-route.ts models it (its refusals in World's order, the unverified app's
// quota, its timing, a result per address by the user's World App language), behind World's path. Another method or
// path is a 404; a request whose body never fully arrived (its sender died after the headers) is acted on by no one, as
// World's `req.json()` never yields it. Every n-th request World passes to its upstream finds it throttling (World
// answers 500 once its own tries are over, about 2.5 minutes later, having sent nothing), and every m-th finds it
// silent (World answers 500 after its tries time out, about 3.4 minutes, and the upstream may have delivered: here it
// did). User i (address 0x…i) has its World App in DEVICE_LANGUAGES[i % n]: World's 19 and some it lacks.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { WORLD_APP_DEVICE_LANGUAGES } from "@oro/clients";
import { createWorldRoute, usualWorldApp, type WorldUpstream } from "../src/services/notifications/world-route.js";

export { WORLD_RETRY_BACKOFF_MS, worldApiKey, worldThrottledAnswerMs } from "../src/services/notifications/world-route.js";

export const SEND_NOTIFICATION_PATH = "/api/v2/minikit/send-notification";

/** The World App languages of the bench's users, in turn: each one World delivers in, and some it lacks. */
export const DEVICE_LANGUAGES = WORLD_APP_DEVICE_LANGUAGES;

export interface StandIn {
  server: Server;
  /** How many times each reminder's address was delivered to (index i for the address 0x…i). */
  arrivals: Uint8Array;
  requests: number;
  /** Requests World's upstream throttled: World answered them 500 and sent nothing. */
  throttled: number;
  /** Requests World's upstream never answered: World answered them 500, and they were delivered. */
  silent: number;
  /** Requests World refused (a 4xx), with why. */
  refused: string[];
  /** Requests without an API key (401). */
  unauthorized: number;
  /** Requests whose body never fully arrived: nothing of them was sent. */
  cutOff: number;
  /** Addresses World took but did not deliver to (a request without the text of the user's World App language). */
  notDelivered: number;
  firstAt: number;
  lastAt: number;
  /** Addresses delivered to. */
  received: number;
}

export interface StandInOptions {
  /** Addresses 0x…1 to 0x…reminders are counted in `arrivals`. */
  reminders: number;
  /** World answers after this long (it goes on sending whether the caller waits or not). */
  answerMs: number;
  /** Every n-th request World passes on finds its upstream throttling (World then answers 500, having sent nothing). */
  throttledEvery: number;
  /** When World answers a throttled request: after its 10 tries and their backoff, as World does (the default). */
  throttledAnswerMs?: number;
  /** Every m-th request finds its upstream silent (0: none): World answers 500 after its tries time out; it delivered. */
  silentEvery?: number;
  /** When World answers a request its upstream never answered: after 10 tries of 5 s and the backoff (the default). */
  silentAnswerMs?: number;
  /** World's record of the app: verified (the default) or not (40 notifications per 4 hours). */
  verified?: boolean;
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

/** The index i of the address 0x…i, or 0 for another. */
const indexOf = (address: string) => Number.parseInt(address.slice(2), 16);

export function standInForWorld(options: StandInOptions): StandIn {
  const state: StandIn = {
    server: createServer(),
    arrivals: new Uint8Array(options.reminders + 1),
    requests: 0,
    throttled: 0,
    silent: 0,
    refused: [],
    unauthorized: 0,
    cutOff: 0,
    notDelivered: 0,
    firstAt: 0,
    lastAt: 0,
    received: 0,
  };
  const upstream = (n: number): WorldUpstream => {
    if (n % options.throttledEvery === 0) return "throttled";
    if (options.silentEvery && n % options.silentEvery === 0) return "never-answers";
    return "delivers";
  };
  const route = createWorldRoute({
    app: usualWorldApp(options.appId, options.apiKey, { verified: options.verified ?? true }),
    deviceOf: (address) => ({ language: DEVICE_LANGUAGES[indexOf(address) % DEVICE_LANGUAGES.length] ?? "en", notifications: true }),
    upstream,
  });
  state.server.on("request", (request, response) => {
    const send = (status: number, answer: unknown) => {
      response.writeHead(status, { "content-type": typeof answer === "string" ? "text/plain" : "application/json" });
      response.end(typeof answer === "string" ? answer : JSON.stringify(answer));
    };
    if (request.method !== "POST" || request.url !== SEND_NOTIFICATION_PATH) return send(404, { code: "not_found" });
    void wholeBody(request).then((text) => {
      if (text === undefined) {
        state.cutOff += 1;
        return;
      }
      state.requests += 1;
      const answer = route.answer(request.headers.authorization, text);
      if (answer.status === 401) state.unauthorized += 1;
      else if (answer.status >= 400 && answer.status < 500) state.refused.push(JSON.stringify(answer.body));
      const throttled = answer.status >= 500 && answer.deliveries.length === 0 && answer.afterMs > 0;
      const silent = answer.status >= 500 && answer.deliveries.length > 0;
      if (throttled) state.throttled += 1;
      if (silent) state.silent += 1;
      for (const delivery of answer.deliveries) {
        if (!delivery.sent) {
          state.notDelivered += 1;
          continue;
        }
        const index = indexOf(delivery.address);
        if (index >= 1 && index <= options.reminders) state.arrivals[index] = Math.min(255, (state.arrivals[index] ?? 0) + 1);
        state.received += 1;
        state.firstAt ||= Date.now();
        state.lastAt = Date.now();
      }
      const afterMs = throttled ? (options.throttledAnswerMs ?? answer.afterMs) : silent ? (options.silentAnswerMs ?? answer.afterMs) : answer.status === 200 ? options.answerMs : 0;
      setTimeout(() => send(answer.status, answer.body), afterMs);
    });
  });
  return state;
}
