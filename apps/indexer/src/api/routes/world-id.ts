import { Hono } from "hono";
import { db } from "ponder:api";
import { account, worldIdSession } from "ponder:schema";
import { eq } from "ponder";
import { parseAddress } from "../../lib/request-params";
import { valueOr400 } from "../respond";
import type { WorldIdStatusResponse } from "../types";

/**
 * The World ID 4.0 state of a wallet's human: their session (the app rebuilds `IDKit.proveSession`'s input from it on
 * any device). The wallet's human is the one whose mint it received first, as everywhere; a wallet that received no
 * mint yet is matched by the session it enrolled with.
 */
export const worldId = new Hono().get("/:address", async (c) => {
  const address = valueOr400(c, parseAddress(c.req.param("address")));
  if ("response" in address) return address.response;

  const [holder] = await db.select().from(account).where(eq(account.address, address.value)).limit(1);
  const human = holder?.firstMintNullifierHash ?? null;
  const [session] = human
    ? await db.select().from(worldIdSession).where(eq(worldIdSession.human, human)).limit(1)
    : await db.select().from(worldIdSession).where(eq(worldIdSession.receiver, address.value)).limit(1);
  return c.json({
    address: address.value,
    session: session
      ? { idkitSessionId: session.idkitSessionId, sessionId: session.sessionId, human: session.human, movedFrom: session.movedFrom, enrolledAt: session.enrolledAt }
      : null,
    movedToWorldId4: session?.movedFrom != null,
  } satisfies WorldIdStatusResponse);
});
