import fp from "fastify-plugin";
import type { FastifyError } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import type { ErrorResponse } from "../schemas/common.js";
import { ApiError, isApiErrorCode, RateLimitedError } from "../lib/errors.js";
import { isDatabaseUnavailable } from "../db/database.js";

/**
 * One shape for every failure: `{ error, message, issues? }`. Invalid input is a 400 that names each field
 * and the rule it broke; an unknown route is a 404; a database that does not answer a 503; only a bug is a 500 (logged, with no detail leaked).
 */
export default fp(
  (fastify, _options, done) => {
    fastify.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
      if (error instanceof ApiError) {
        if (error instanceof RateLimitedError) void reply.header("retry-after", error.retryAfterSeconds);
        const body: ErrorResponse = { error: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) };
        return reply.status(error.statusCode).send(body);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const where = error.validationContext ?? "request";
        const issues = error.validation.map((issue) => ({
          field: [where, ...issue.instancePath.split("/").filter(Boolean)].join("."),
          rule: issue.keyword,
          message: issue.message ?? "invalid",
        }));
        const summary = issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ");
        return reply.status(400).send({ error: "VALIDATION_ERROR", message: summary, issues } satisfies ErrorResponse);
      }
      const status = error.statusCode ?? 500;
      if (status === 429) {
        return reply.status(429).send({ error: "RATE_LIMITED", message: error.message } satisfies ErrorResponse);
      }
      if (status >= 400 && status < 500) {
        // Fastify's own client errors: a malformed JSON body, an unsupported media type, a body too large. A code
        // outside the API's list (an aborted upload's, say) is answered as BAD_REQUEST, which the document lists.
        return reply.status(status).send({
          error: isApiErrorCode(error.code) ? error.code : "BAD_REQUEST",
          message: error.message,
          issues: [{ field: "body", rule: error.code ?? "invalid", message: error.message }],
        } satisfies ErrorResponse);
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, "the database does not answer");
        void reply.header("retry-after", 1);
        return reply.status(503).send({ error: "DATABASE_UNAVAILABLE", message: "the database does not answer: try again shortly" } satisfies ErrorResponse);
      }
      request.log.error({ err: error }, "unhandled error");
      return reply.status(500).send({ error: "INTERNAL_ERROR", message: "something went wrong on our side" } satisfies ErrorResponse);
    });

    fastify.setNotFoundHandler((request, reply) =>
      reply.status(404).send({ error: "NOT_FOUND", message: `no route ${request.method} ${request.url}` } satisfies ErrorResponse),
    );
    done();
  },
  { name: "errors" },
);
