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
  ) {
    super(message);
  }
}

/** P2002: a unique constraint refused the write. The constraint name differs between pg and PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "P2002";
}
