import { randomUUID } from "node:crypto";
import fp from "fastify-plugin";
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./env.js";
import errors from "./plugins/errors.js";
import security from "./plugins/security.js";
import { serializerCompiler } from "./plugins/serializer.js";
import services, { type ServicesOptions } from "./plugins/services.js";
import session from "./plugins/session.js";
import swagger from "./plugins/swagger.js";
import workers from "./plugins/workers.js";
import authRoutes from "./routes/auth/index.js";
import healthRoutes from "./routes/health/index.js";
import inviteRoutes from "./routes/invite/index.js";
import referralCodeRoutes from "./routes/referral-codes/index.js";
import referralRoutes from "./routes/referrals/index.js";
import erc20Routes from "./routes/erc20/index.js";
import notificationRoutes from "./routes/notifications/index.js";
import pollRoutes from "./routes/polls/index.js";
import statsRoutes from "./routes/stats/index.js";
import streakRoutes from "./routes/streaks/index.js";
import userRoutes from "./routes/user/index.js";
import worldIdRoutes from "./routes/world-id/index.js";
import metrics from "./plugins/metrics.js";
import { DEFAULT_CONNECTION_LIMITS, createHttpServer, limitConnectionsPerAddress, type ConnectionLimits } from "./connection-limits.js";
import type { ErrorResponse } from "./schemas/common.js";

export type AppOptions = ServicesOptions;

/**
 * The API as a plugin: external plugins, then the app's own (services, session, workers), then routes.
 * Not encapsulated, so whoever registers it sees its decorators (`swagger()`, `services`).
 */
async function oroApi(fastify: FastifyInstance, options: AppOptions): Promise<void> {
  const { config } = options;
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);

  await fastify.register(errors);
  await fastify.register(security, { config });
  await fastify.register(swagger, { cookieName: config.session.cookieName });
  await fastify.register(services, options);
  await fastify.register(session, { config });
  await fastify.register(workers, { config });
  await fastify.register(metrics, { config });

  await fastify.register(healthRoutes, { prefix: "/api", config });
  await fastify.register(authRoutes, { prefix: "/api/auth" });
  await fastify.register(referralCodeRoutes, { prefix: "/api/referral_codes" });
  await fastify.register(referralRoutes, { prefix: "/api/referrals", config });
  await fastify.register(streakRoutes, { prefix: "/api/streaks" });
  await fastify.register(notificationRoutes, { prefix: "/api/notifications" });
  await fastify.register(userRoutes, { prefix: "/api/user" });
  await fastify.register(erc20Routes, { prefix: "/api/erc20" });
  await fastify.register(pollRoutes, { prefix: "/api/polls" });
  await fastify.register(worldIdRoutes, { prefix: "/api/world-id" });
  await fastify.register(statsRoutes, { prefix: "/api/stats", config });
  await fastify.register(inviteRoutes, { prefix: "/api/invite", config });
  // Development only: what the outbox transport "sent" (the World App simulator lists it); never in production but
  // for a rehearsal on the development chain (ORO_REHEARSAL).
  if (config.notifications.transport === "outbox" && (!config.isProduction || config.rehearsal)) await fastify.register(import("./routes/dev/index.js"), { prefix: "/api/dev" });
}

const app = fp(oroApi, { name: "oro-api" });
export default app;

const REQUEST_ID = /^[\w.-]{1,64}$/;
/** An answer that took this long is logged (at warn) whatever its status. */
const SLOW_REQUEST_MS = 1_000;

/**
 * Fastify's two lines per request ("incoming request", "request completed") are at info, the production level: two
 * synchronous writes to stdout for every request. At info only what an operator acts on is logged (a failed request at
 * error, a server error answer or a slow one at warn, with its method, URL, status and time); every request at debug.
 */
class RequestLogs extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime }, "request errored");
    else if (reply.statusCode >= 500) reply.log.warn({ req: request, res: reply, responseTime }, "request failed");
    else if (responseTime >= SLOW_REQUEST_MS) reply.log.warn({ req: request, res: reply, responseTime }, "slow request");
    else reply.log.debug({ res: reply, responseTime }, "request completed");
  }
}

/** Server options: structured logs with a request id (taken from x-request-id when sane), proxy trust, and the
 *  time a request may take to arrive and a connection may idle. */
export function serverOptions(
  config: Config,
  logger: FastifyServerOptions["logger"] = undefined,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): FastifyServerOptions {
  return {
    serverFactory: (handler) => createHttpServer(limits, handler),
    logger: logger ?? {
      level: config.logLevel,
      redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
    },
    logController: new RequestLogs(),
    // The incoming x-request-id is used only when it looks like an id (see genReqId), never verbatim.
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers["x-request-id"];
      return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Trust exactly the configured number of proxy hops in front (X-Forwarded-For), no more.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    bodyLimit: 64 * 1024,
    // While it shuts down (SIGTERM), a replica still answers the requests that reach it on connections already open
    // (Caddy keeps them alive): a 503 there would fail GETs that the other replica could have served.
    return503OnClosing: false,
    // The router's own refusals (a path parameter too long: 414; a malformed URL: 400) come before any route and
    // its error handler: they get the API's error shape too, with a code of its list.
    frameworkErrors: (error, _request, reply) => {
      const body: ErrorResponse = { error: "BAD_REQUEST", message: error.message };
      void (reply as FastifyReply).status(error.statusCode ?? 400).send(body);
    },
  };
}

export async function buildApp(
  options: AppOptions & { logger?: FastifyServerOptions["logger"]; connectionLimits?: ConnectionLimits },
): Promise<FastifyInstance> {
  const limits = options.connectionLimits ?? DEFAULT_CONNECTION_LIMITS;
  const fastify = Fastify(serverOptions(options.config, options.logger, limits)).withTypeProvider<ZodTypeProvider>();
  // Behind proxies every connection comes from them: the per-address bound is then the edge's to keep.
  limitConnectionsPerAddress(fastify.server, options.config.trustProxyHops > 0 ? 0 : limits.perAddress, (address, refused) => {
    // A flood would drown the log: the first refusal, then every thousandth.
    if (refused === 1 || refused % 1000 === 0) fastify.log.warn({ address, refused }, "connection refused: too many open from one address");
  });
  // Set up front (a synchronous hook, not an async onSend per answer): every answer, errors included, carries it.
  fastify.addHook("onRequest", (request, reply, done) => {
    void reply.header("x-request-id", request.id);
    done();
  });
  await fastify.register(app, options);
  return fastify;
}
