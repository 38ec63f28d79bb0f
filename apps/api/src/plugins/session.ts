import cookie from "@fastify/cookie";
import fp from "fastify-plugin";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../env.js";
import type { User } from "../generated/prisma/client.js";
import { ApiError, RateLimitedError } from "../lib/errors.js";
import { TtlCache } from "../lib/ttl-cache.js";
import { isSessionToken } from "../services/auth/auth.js";

/**
 * Sessions: a bearer token (`Authorization: Bearer …`) or the httpOnly cookie, both the token that
 * POST /api/auth/siwe returned. `request.requireUser(address?)` answers 401 without a valid session and 403
 * when the session belongs to another address than the one the route acts for.
 */
export default fp<{ config: Config }>(
  async (fastify, { config }) => {
    // Cookies are parsed only when a request has no bearer token (hook: false): most requests carry one, and the
    // plugin would otherwise parse every request's cookie header up front.
    await fastify.register(cookie, { hook: false });
    const { cookieName } = config.session;

    function tokenOf(request: FastifyRequest): string | undefined {
      // The authentication scheme is case-insensitive (RFC 9110 §11.1): "bearer" and "BEARER" are Bearer.
      const bearer = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? "");
      if (bearer) return bearer[1];
      const header = request.headers.cookie;
      return (header && fastify.parseCookie(header)[cookieName]) || undefined;
    }

    fastify.decorateRequest("sessionToken", function (this: FastifyRequest) {
      return tokenOf(this);
    });

    // A request's session is looked up once, however many steps ask (the per-address limit, the handler). It is kept on
    // the request (declared up front, so every request has the same shape): a WeakMap entry per request was work for
    // the garbage collector on every cached read.
    fastify.decorateRequest("sessionLookup", null);
    const NO_SESSION = Promise.resolve(null);
    const refusals = sessionRefusals(fastify, config);
    function sessionUser(request: FastifyRequest): Promise<User | null> {
      if (request.sessionLookup === null) {
        const token = tokenOf(request);
        request.sessionLookup = token && isSessionToken(token) ? lookUp(request, token) : NO_SESSION;
      }
      return request.sessionLookup;
    }

    async function lookUp(request: FastifyRequest, token: string): Promise<User | null> {
      const user = await fastify.services.auth.userForToken(token, () => refusals.refuseIfSpent(request));
      if (!user) await refusals.count(request);
      return user;
    }

    fastify.decorateRequest("optionalUser", async function (this: FastifyRequest): Promise<User | undefined> {
      return (await sessionUser(this)) ?? undefined;
    });

    fastify.decorateRequest("requireUser", async function (this: FastifyRequest, userAddress?: string): Promise<User> {
      const user = await sessionUser(this);
      if (!user) throw new ApiError(401, "UNAUTHORIZED", "sign in first: no valid session");
      if (userAddress !== undefined && user.address !== userAddress.toLowerCase()) {
        throw new ApiError(403, "FORBIDDEN", "this session belongs to another address than userAddress");
      }
      return user;
    });

    fastify.decorateReply("setSessionCookie", function (this: FastifyReply, token: string, expiresAt: Date) {
      return this.setCookie(cookieName, token, {
        httpOnly: true,
        secure: config.session.secure,
        sameSite: config.session.sameSite,
        path: "/api",
        expires: expiresAt,
      });
    });

    fastify.decorateReply("clearSessionCookie", function (this: FastifyReply) {
      return this.clearCookie(cookieName, { path: "/api" });
    });
  },
  { name: "session", dependencies: ["services"] },
);

/**
 * Tokens refused per client address: a token this process does not hold costs a database lookup, so an address that
 * sent RATE_LIMIT_SESSION_REFUSALS_PER_IP unknown (or expired) tokens in a window is refused (429) before any lookup
 * until the window ends. Counted in the rate limits' store (one budget across replicas with Redis); each process
 * remembers the addresses over budget, so a refused request asks nothing of the database or the store. Sessions this
 * process holds still pass: only what needs a lookup is refused.
 */
function sessionRefusals(fastify: FastifyInstance, config: Config) {
  const { windowMs, sessionRefusalsPerIp } = config.rateLimit;
  const countRefusal = fastify.createRateLimit({
    max: sessionRefusalsPerIp,
    timeWindow: windowMs,
    keyGenerator: (request) => `session-refused:${request.ip}`,
  });
  /** Client address → when its window ends (ms); bounded, as every address a flood comes from is kept. */
  const spentUntil = new TtlCache<number>(windowMs, 100_000);
  return {
    refuseIfSpent(request: FastifyRequest): void {
      const until = spentUntil.get(request.ip);
      if (until === undefined || until <= Date.now()) return;
      const seconds = Math.ceil((until - Date.now()) / 1_000);
      throw new RateLimitedError(`too many requests from this address with a session that is not valid: retry in ${seconds} s`, seconds);
    },
    async count(request: FastifyRequest): Promise<void> {
      const counted = await countRefusal(request);
      // The last refusal of the budget spends it: the next token to look up is refused first.
      if (!counted.isAllowed && counted.remaining === 0) spentUntil.set(request.ip, Date.now() + counted.ttl);
    },
  };
}

declare module "fastify" {
  interface FastifyRequest {
    /** This request's session lookup, once started (the session plugin's; read it through optionalUser/requireUser). */
    sessionLookup: Promise<User | null> | null;
    sessionToken(): string | undefined;
    requireUser(userAddress?: string): Promise<User>;
    /** The signed-in user, or undefined (no token, or one that is not valid): for routes that only add to their answer. */
    optionalUser(): Promise<User | undefined>;
  }
  interface FastifyReply {
    setSessionCookie(token: string, expiresAt: Date): FastifyReply;
    clearSessionCookie(): FastifyReply;
  }
}
