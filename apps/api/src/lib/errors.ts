/**
 * Every code the API answers in `{ error, message }`: the one list. The error response schema's `error` is an
 * enum of it, so the OpenAPI document and the generated client (`ApiErrorCode`) carry it to the web app.
 */
export const API_ERROR_CODES = [
  // any route
  "VALIDATION_ERROR",
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "NOT_READY",
  "DATABASE_UNAVAILABLE",
  // Fastify's own refusals of a request body, passed on with Fastify's code
  "FST_ERR_CTP_BODY_TOO_LARGE",
  "FST_ERR_CTP_INVALID_MEDIA_TYPE",
  "FST_ERR_CTP_INVALID_CONTENT_LENGTH",
  "FST_ERR_CTP_EMPTY_JSON_BODY",
  "FST_ERR_CTP_INVALID_JSON_BODY",
  // sign-in and signed messages
  "NONCE_UNKNOWN",
  "NONCE_USED",
  "NONCE_EXPIRED",
  "SIWE_MESSAGE_INVALID",
  "SIWE_VERSION_INVALID",
  "SIWE_DOMAIN_MISMATCH",
  "SIWE_URI_MISMATCH",
  "SIWE_CHAIN_MISMATCH",
  "SIWE_ISSUED_AT_INVALID",
  "SIGNATURE_REQUIRED",
  "SIGNATURE_INVALID",
  "CHAIN_UNAVAILABLE",
  // referrals
  "REFERRAL_CODE_NOT_FOUND",
  "REFERRAL_ALREADY_EXISTS",
  "NO_SELF_REFERRAL",
  "NOT_ELIGIBLE",
  "ELIGIBILITY_UNAVAILABLE",
  // what the indexer or a price source answers
  "STREAK_UNAVAILABLE",
  "WORLD_ID_STATUS_UNAVAILABLE",
  "STATS_UNAVAILABLE",
  "REMINDER_UNAVAILABLE",
  "PRICE_UNAVAILABLE",
  // polls
  "HUMAN_CHECK_UNAVAILABLE",
  "NOT_VERIFIED_HUMAN",
  "POLL_NOT_FOUND",
  "POLL_CLOSED",
  "OPTION_NOT_FOUND",
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  return (API_ERROR_CODES as readonly unknown[]).includes(code);
}

/**
 * An error a route answers with its own status and a stable code (`{ error: code, message }`), as opposed
 * to a bug (500). Services throw these; the error handler turns them into responses.
 */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    /** The fields at fault, as a validation error names them (for a 400 decided past the schema). */
    readonly issues?: { field: string; rule: string; message: string }[],
  ) {
    super(message);
  }
}

/** A 429 decided past the rate-limit plugin: its answer carries retry-after, as the plugin's own 429s do. */
export class RateLimitedError extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, "RATE_LIMITED", message);
  }
}

/** P2002: a unique constraint refused the write. The constraint name differs between pg and PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "P2002";
}

/**
 * The name of the constraint (or unique index) a failed write broke, when the driver says it: pg names the
 * index in the error's details, PGlite only in the message, so both are read.
 */
export function violatedConstraint(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("meta" in error)) return undefined;
  const cause = (error.meta as { driverAdapterError?: { cause?: { constraint?: { index?: unknown }; originalMessage?: unknown } } } | undefined)
    ?.driverAdapterError?.cause;
  if (typeof cause?.constraint?.index === "string") return cause.constraint.index;
  const message = typeof cause?.originalMessage === "string" ? cause.originalMessage : "";
  return /constraint "([^"]+)"/.exec(message)?.[1];
}
