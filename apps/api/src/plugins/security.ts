import cors from "@fastify/cors";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import fp from "fastify-plugin";
import type { preHandlerAsyncHookHandler } from "fastify";
import type { Config } from "../env.js";
import { ApiError } from "../services/errors.js";

/**
 * CORS from the configured allow-list (credentials allowed, for the session cookie), security headers,
 * and rate limits: per client IP on every route, per wallet address on routes that name one
 * (`fastify.perAddressRateLimit`).
 */
export default fp<{ config: Config }>(
  async (fastify, { config }) => {
    const allowed = new Set(config.corsOrigins);
    await fastify.register(cors, {
      origin: (origin, callback) => callback(null, origin === undefined || allowed.has(origin)),
      credentials: true,
      methods: ["GET", "POST", "OPTIONS"],
      allowedHeaders: ["content-type", "authorization", "x-request-id"],
      exposedHeaders: ["x-request-id", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"],
    });
    await fastify.register(helmet, {
      // The API serves JSON; the only HTML is the docs page, whose CSP @fastify/swagger-ui sets itself.
      contentSecurityPolicy: false,
      crossOriginResourcePolicy: { policy: "cross-origin" },
    });
    await fastify.register(rateLimit, {
      global: true,
      max: config.rateLimit.perIp,
      timeWindow: config.rateLimit.windowMs,
      keyGenerator: (request) => `ip:${request.ip}`,
      errorResponseBuilder: (_request, context) => ({
        statusCode: context.statusCode,
        error: "RATE_LIMITED",
        message: `too many requests: retry in ${context.after}`,
      }),
    });

    // A second, independent limit keyed by the wallet address the request acts for. (The plugin's own
    // per-route handler would be skipped: it runs once per request, and the per-IP limit already ran.)
    const checkAddress = fastify.createRateLimit({
      max: config.rateLimit.perAddress,
      timeWindow: config.rateLimit.windowMs,
      keyGenerator: (request) => {
        const query = request.query as { userAddress?: unknown } | undefined;
        return typeof query?.userAddress === "string" ? `address:${query.userAddress.toLowerCase()}` : `ip:${request.ip}`;
      },
    });
    const perAddress: preHandlerAsyncHookHandler = async (request, reply) => {
      const result = await checkAddress(request);
      if (result.isAllowed || !result.isExceeded) return;
      void reply.header("retry-after", result.ttlInSeconds);
      throw new ApiError(429, "RATE_LIMITED", `too many requests for this address: retry in ${result.ttlInSeconds} s`);
    };
    fastify.decorate("perAddressRateLimit", perAddress);
  },
  { name: "security" },
);

declare module "fastify" {
  interface FastifyInstance {
    perAddressRateLimit: preHandlerAsyncHookHandler;
  }
}
