import cors from "@fastify/cors";
import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyRequest, type onRequestHookHandler, type preHandlerAsyncHookHandler } from "fastify";
import fp from "fastify-plugin";
import { Redis } from "ioredis";
import type { Config } from "../env.js";
import { ApiError } from "../lib/errors.js";
import { batchedRedisStore } from "./rate-limit-store.js";

/**
 * CORS from the configured allow-list (credentials allowed, for the session cookie), security headers (an API's on
 * every answer, a document's on the HTML pages),
 * and rate limits: per client IP on every route, per wallet address on routes that name one
 * (`fastify.perAddressRateLimit`), counted in Redis when one is configured (one budget across replicas).
 */
export default fp<{ config: Config }>(
  async (fastify, { config }) => {
    const allowed = new Set(config.corsOrigins);
    await fastify.register(cors, {
      // A request without an Origin (same-origin GETs through the web app's /api, servers) needs no CORS header:
      // it gets none, instead of four on every answer.
      origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
      credentials: true,
      methods: ["GET", "POST", "OPTIONS"],
      allowedHeaders: ["content-type", "authorization", "x-request-id"],
      exposedHeaders: ["x-request-id", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"],
    });
    const documentHeaders = await helmetHeaders({
      // The HTML pages are the docs, whose CSP @fastify/swagger-ui sets itself, and the invite preview.
      contentSecurityPolicy: false,
      crossOriginResourcePolicy: { policy: "cross-origin" },
    });
    // A JSON answer is never rendered as a page: of helmet's set it needs what OWASP's REST security cheat sheet
    // asks of an API (no sniffing, HTTPS only, not framed). The rest (opener and referrer policies, DNS prefetch,
    // the XSS auditor, Flash's cross-domain policies…) governs documents only: 250 bytes on every answer for nothing.
    const apiHeaders = Object.fromEntries(API_HEADER_NAMES.map((name) => [name, documentHeaders[name] ?? ""]));
    fastify.addHook("onRequest", (_request, reply, done) => {
      void reply.headers(apiHeaders);
      done();
    });
    fastify.decorate("documentHeaders", documentHeaders);
    const store = config.rateLimit.redisUrl ? sharedStore(fastify, config.rateLimit.redisUrl, config.rateLimit.redisTimeoutMs) : undefined;
    fastify.decorate("rateLimitStore", { shared: store !== undefined, available: () => store?.available() ?? true });
    await fastify.register(rateLimit, {
      global: true,
      // In Redis, each turn of the event loop's checks go in one call (rate-limit-store.ts); a store that fails lets requests through.
      ...(store ? { store: batchedRedisStore(store.redis, "oro-rate-limit:", store.counted), skipOnError: true } : {}),
      max: config.rateLimit.perIp,
      timeWindow: config.rateLimit.windowMs,
      keyGenerator: (request) => `ip:${request.ip}`,
      // The budget's headers on the 429 only (with retry-after), not on every answer within it: nothing reads them
      // there, and three headers more on each answer cost a cached read a tenth of its throughput.
      addHeadersOnExceeding: { "x-ratelimit-limit": false, "x-ratelimit-remaining": false, "x-ratelimit-reset": false },
      errorResponseBuilder: (_request, context) => ({
        statusCode: context.statusCode,
        error: "RATE_LIMITED",
        message: `too many requests: retry in ${context.after}`,
      }),
    });

    // A second, independent limit on routes that act for (or reach the indexer about) one wallet. Only a
    // request signed in as that wallet spends the wallet's budget: anyone else naming the address would
    // otherwise lock its owner out. Anonymous requests, and sessions of another address, spend a budget of
    // the same size per client IP. (The plugin's own per-route handler would be skipped: it runs once per
    // request, and the per-IP limit already ran.)
    // The key and the check live on the request (declared up front, one shape for every request): WeakMap entries per
    // request were work for the garbage collector on every read.
    fastify.decorateRequest("addressLimitKey", null);
    fastify.decorateRequest("addressLimitCheck", null);
    const checkAddress = fastify.createRateLimit({
      max: config.rateLimit.perAddress,
      timeWindow: config.rateLimit.windowMs,
      keyGenerator: (request) => request.addressLimitKey ?? `anonymous:${request.ip}`,
    });
    const startAddressCheck = (request: FastifyRequest): Promise<AddressLimitCheck> => {
      request.addressLimitCheck ??= (async () => {
        const query = request.query as { userAddress?: unknown } | undefined;
        const address = typeof query?.userAddress === "string" ? query.userAddress.toLowerCase() : undefined;
        const user = address ? await request.optionalUser() : undefined;
        request.addressLimitKey = user && user.address === address ? `address:${address}` : `anonymous:${request.ip}`;
        return checkAddress(request);
      })();
      return request.addressLimitCheck;
    };
    const perAddress: preHandlerAsyncHookHandler = async (request, reply) => {
      const result = await startAddressCheck(request);
      if (result.isAllowed || !result.isExceeded) return;
      void reply.header("retry-after", result.ttlInSeconds);
      throw new ApiError(429, "RATE_LIMITED", `too many requests for this address: retry in ${result.ttlInSeconds} s`);
    };
    // On a route with the per-address limit its check starts with the per-IP one, so that in Redis both counts go in
    // the same call (one round trip a request, not two: a session route's checks were a tenth of its CPU). The
    // wallet's budget is then spent by requests the per-IP limit or validation refuses too, as by any other.
    const startEarly: onRequestHookHandler = (request, _reply, done) => {
      startAddressCheck(request).catch(() => {}); // the preHandler awaits it (and gets its error); none is unhandled here
      done();
    };
    fastify.addHook("onRoute", (route) => {
      const preHandlers = route.preHandler === undefined ? [] : [route.preHandler].flat();
      if (!preHandlers.includes(perAddress)) return;
      // First of the route's onRequest hooks, before the per-IP limit's (which waits for its count).
      route.onRequest = [startEarly, ...(route.onRequest === undefined ? [] : [route.onRequest].flat())];
    });
    fastify.decorate("perAddressRateLimit", perAddress);
  },
  // The per-address limit asks the session plugin who is signed in; the session plugin is registered later.
  { name: "security" },
);

/** Helmet's headers every answer carries, JSON included (the rest only the HTML pages). */
const API_HEADER_NAMES = ["strict-transport-security", "x-content-type-options", "x-frame-options"];

/**
 * The security headers @fastify/helmet sets with these options, read once from a throwaway instance. They are the
 * same on every answer, but the plugin builds helmet's middleware anew for each request (its options parsed, a dozen
 * middlewares run): 8% of a cached route's CPU in the benchmark's profile. Set from this record they cost one loop.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  let headers: Record<string, string> = {};
  // Helmet writes to the raw response in its onRequest hook, before Fastify has written anything there.
  probe.addHook("onRequest", (_request, reply, done) => {
    headers = Object.fromEntries(Object.entries(reply.raw.getHeaders()).map(([name, value]) => [name, String(value)]));
    done();
  });
  probe.get("/", (_request, reply) => reply.send());
  await probe.inject({ method: "GET", url: "/" });
  await probe.close();
  for (const name of API_HEADER_NAMES) {
    if (!headers[name]) throw new Error(`@fastify/helmet did not set ${name} on the probe`);
  }
  return headers;
}

/**
 * The shared counter store. A store that is down must not take the API with it: commands fail fast (no offline
 * queue, a short timeout), the limiter then lets requests through (skipOnError), and the log says when the store
 * went away and when it came back. A store that is connected but fails to count (`counted` hears each call) is
 * logged and reported unavailable the same way.
 */
function sharedStore(fastify: FastifyInstance, url: string, timeoutMs: number): { redis: Redis; available: () => boolean; counted: (failure?: Error) => void } {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    commandTimeout: timeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 250, 2_000),
  });
  let available: boolean | undefined;
  /** Whether the last call counted; a fresh connection is taken to count until a call says otherwise. */
  let counting = true;
  redis.on("ready", () => {
    if (available === false) fastify.log.warn("rate-limit store is back: one budget across replicas again");
    available = true;
    counting = true;
  });
  redis.on("error", (error: Error) => {
    if (available !== false) {
      fastify.log.error({ err: error }, "rate-limit store unavailable: requests are not rate limited until it is back");
    }
    available = false;
  });
  fastify.addHook("onClose", (_instance, done) => {
    redis.disconnect();
    done();
  });
  // While disconnected every call fails too: the connection's own error is the line logged then.
  const counted = (failure?: Error) => {
    if (failure === undefined) {
      if (!counting && available === true) fastify.log.warn("rate-limit store counts again: one budget across replicas again");
      counting = true;
      return;
    }
    if (counting && available === true) {
      fastify.log.error({ err: failure }, "rate-limit store does not count: requests are not rate limited until it counts again");
    }
    counting = false;
  };
  return { redis, available: () => available === true && counting, counted };
}

/** What the per-address limit decided for a request (the rate-limit plugin's check). */
type AddressLimitCheck = Awaited<ReturnType<ReturnType<FastifyInstance["createRateLimit"]>>>;

declare module "fastify" {
  interface FastifyRequest {
    /** The per-address limit's key and its check for this request, once started (security plugin's own). */
    addressLimitKey: string | null;
    addressLimitCheck: Promise<AddressLimitCheck> | null;
  }
  interface FastifyInstance {
    perAddressRateLimit: preHandlerAsyncHookHandler;
    /** Where the rate limits count: in a shared store (and whether it answers now), or in this process. */
    rateLimitStore: { shared: boolean; available: () => boolean };
    /** Helmet's whole set of security headers, for the answers that are HTML pages (every answer has the API's part). */
    documentHeaders: Record<string, string>;
  }
}
