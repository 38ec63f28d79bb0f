/**
 * An error a route answers with its own status and a stable code (`{ error: code, message }`), as opposed
 * to a bug (500). Services throw these; the error handler turns them into responses.
 */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** The fields at fault, as a validation error names them (for a 400 decided past the schema). */
    readonly issues?: { field: string; rule: string; message: string }[],
  ) {
    super(message);
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
