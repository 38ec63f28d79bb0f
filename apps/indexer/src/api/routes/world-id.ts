import { Hono } from "hono";
import { db } from "ponder:api";
import { account, worldIdSession } from "ponder:schema";
import { and, asc, desc, eq, isNotNull } from "ponder";
import { nullifierHashToHex, parseAddress } from "../../lib/request-params";
import { valueOr400 } from "../respond";
import type { WorldIdStatusResponse } from "../types";

/**
 * The World ID 4.0 state of a wallet's human: their session (the app rebuilds `IDKit.proveSession`'s input from it on
 * any device). The wallet's human is the one whose mint it received first, as everywhere; otherwise (no mint yet, or a
 * 3.0 human who enrolled anew after 3.0 closed) the newest session enrolled with this wallet. Only a session IDKit can
 * prove counts: one whose enrolment carried no OPRF seed (`problem`) is never offered to the app.
 */
export const worldId = new Hono().get("/:address", async (c) => {
  const address = valueOr400(c, parseAddress(c.req.param("address")));
  if ("response" in address) return address.response;

  const [holder] = await db.select().from(account).where(eq(account.address, address.value)).limit(1);
  const human = holder?.firstMintNullifierHash ?? null;
  const usable = isNotNull(worldIdSession.idkitSessionId);
  // The first enrolment of a human is the one their state follows (a second is an anomaly).
  const [byHuman] = human
    ? await db.select().from(worldIdSession).where(and(eq(worldIdSession.human, human), usable)).orderBy(asc(worldIdSession.blockNumber)).limit(1)
    : [];
  // A 3.0 human who never moved enrols anew once 3.0 closes: their session is under a new key, found by its wallet.
  const [session] = byHuman
    ? [byHuman]
    : await db.select().from(worldIdSession).where(and(eq(worldIdSession.receiver, address.value), usable)).orderBy(desc(worldIdSession.blockNumber)).limit(1);
  return c.json({
    address: address.value,
    session: session?.idkitSessionId
      ? { idkitSessionId: session.idkitSessionId, sessionId: nullifierHashToHex(session.sessionId), human: session.human, movedFrom: session.movedFrom, enrolledAt: session.enrolledAt }
      : null,
    movedToWorldId4: session?.movedFrom != null,
  } satisfies WorldIdStatusResponse);
});
