import cookie from "@fastify/cookie";
import fp from "fastify-plugin";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../env.js";
import type { User } from "../generated/prisma/client.js";
import { ApiError } from "../lib/errors.js";

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
    function sessionUser(request: FastifyRequest): Promise<User | null> {
      if (request.sessionLookup === null) {
        const token = tokenOf(request);
        request.sessionLookup = token ? fastify.services.auth.userForToken(token) : NO_SESSION;
      }
      return request.sessionLookup;
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
