import type { Context } from "hono";
import type { Parsed } from "../lib/request-params";
import type { ErrorResponse } from "./types";

/** The value of a parsed parameter, or a 400 answer carrying the reason. */
export function valueOr400<T>(c: Context, parsed: Parsed<T>): { value: T } | { response: Response } {
  if (parsed.ok) return { value: parsed.value };
  return { response: c.json({ error: parsed.error } satisfies ErrorResponse, 400) };
}
