import type { MiddlewareHandler } from "hono";
import { env } from "../env";
import type { ErrorResponse } from "./types";

let ready = false;
let asking: Promise<boolean> | undefined;

/**
 * Answers 503 until Ponder reports the backfill done (its own `/ready`, asked of this server). Before that the
 * rows cover only the blocks indexed so far, and "this wallet never claimed" would be a guess the API decides
 * referrals on; with a 503 it serves its cached answer or says it cannot tell. Ready stays ready (Ponder never
 * goes back), so the check stops once it passes.
 */
export const readyGate: MiddlewareHandler = async (c, next) => {
  if (!ready) {
    asking ??= fetch(`http://127.0.0.1:${env.port}/ready`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.ok)
      .catch(() => false)
      .finally(() => {
        asking = undefined;
      });
    ready = await asking;
    if (!ready) return c.json({ error: "the indexer is still catching up with the chain (backfill): try again shortly" } satisfies ErrorResponse, 503);
  }
  await next();
};
