/** A wallet command that did not complete; `code` is MiniKit's or IDKit's error code, or one of ours. */
export class WorldAppError extends Error {
  override readonly name = "WorldAppError";
  constructor(
    readonly command: string,
    readonly code: string,
    message?: string,
  ) {
    super(message ?? `${command} failed: ${code}`);
  }
}

/** The user closed or declined the wallet's prompt: not a failure to report. */
export function isUserRejection(error: unknown): boolean {
  if (error instanceof WorldAppError) return error.code === "user_rejected" || error.code === "cancelled";
  if (error && typeof error === "object") {
    const record = error as Record<string, unknown>;
    return record.code === "user_rejected" || record.error_code === "user_rejected" || record.code === 4001;
  }
  return false;
}

/** Turns whatever MiniKit threw (typed errors carry `code` or `error_code`) into a WorldAppError. */
export function toWorldAppError(command: string, error: unknown): WorldAppError {
  if (error instanceof WorldAppError) return error;
  if (error && typeof error === "object") {
    const record = error as Record<string, unknown>;
    const code = record.code ?? record.error_code;
    if (typeof code === "string") return new WorldAppError(command, code, error instanceof Error ? error.message : undefined);
  }
  return new WorldAppError(command, "generic_error", error instanceof Error ? error.message : undefined);
}
