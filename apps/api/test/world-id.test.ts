import { CHAIN_IDS, CLAIM_ACTION, deployments } from "@oro/clients";
import { computeRpSignatureMessage } from "@worldcoin/idkit-core/signing";
import { hexToBytes, recoverMessageAddress, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

/** The enrolment action the development chain's deployment records (the API's default for its chain). */
const ENROLMENT_ACTION = deployments[CHAIN_IDS.development].worldId.enrolmentAction;

interface SignedRequest {
  rp_id: string;
  nonce: `0x${string}`;
  created_at: number;
  expires_at: number;
  signature: `0x${string}`;
  action: string | null;
}

/** Who signed IDKit's message (nonce, times and, unless it is a session request, the action) with this signature. */
function signerOf(signed: SignedRequest, action: string | undefined): Promise<Address> {
  const message = computeRpSignatureMessage(hexToBytes(signed.nonce), signed.created_at, signed.expires_at, action);
  return recoverMessageAddress({ message: { raw: message }, signature: signed.signature });
}

describe("POST /api/world-id/request", () => {
  let t: TestApp;
  let relyingParty: Address;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_ADDRESS: "1000" } });
    relyingParty = privateKeyToAccount(t.config.worldId.signingKey).address;
  });
  afterAll(async () => {
    await t.close();
  });

  const ask = (user: TestUser, { query = "", body }: { query?: string; body?: unknown } = {}) =>
    t.app.inject({
      method: "POST",
      url: `/api/world-id/request?userAddress=${user.address}${query}`,
      headers: bearer(user.token),
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });

  it("returns IDKit's rp_context for the 3.0 claim action by default, signed by the relying party's key, with a new nonce each time", async () => {
    const user = await newUser(t.app);
    const response = await ask(user);
    expect(response.statusCode).toBe(200);
    const body = response.json<SignedRequest>();
    expect(body).toMatchObject({ rp_id: t.config.worldId.rpId, action: CLAIM_ACTION });
    expect(body.expires_at - body.created_at).toBe(300);
    expect(Math.abs(body.created_at - Date.now() / 1000)).toBeLessThan(5);
    expect(await signerOf(body, CLAIM_ACTION)).toBe(relyingParty);
    expect((await ask(user)).json<SignedRequest>().nonce).not.toBe(body.nonce);
  });

  it("signs each kind for its action, whether kind comes in the query or the JSON body; a session request covers no action", async () => {
    const user = await newUser(t.app);
    expect(t.config.worldId.enrolmentAction).toBe(ENROLMENT_ACTION);
    const kinds = [
      ["claim", CLAIM_ACTION],
      ["enrolment", ENROLMENT_ACTION],
      ["session", null],
    ] as const;
    for (const [kind, action] of kinds) {
      for (const how of [{ query: `&kind=${kind}` }, { body: { kind } }]) {
        const response = await ask(user, how);
        expect(response.statusCode, `${kind} ${JSON.stringify(how)}`).toBe(200);
        const signed = response.json<SignedRequest>();
        expect(signed).toMatchObject({ rp_id: t.config.worldId.rpId, action });
        expect(await signerOf(signed, action ?? undefined), kind).toBe(relyingParty);
        // Signed for this kind only: World App would refuse it for any other action.
        for (const [, other] of kinds.filter(([otherKind]) => otherKind !== kind)) {
          expect(await signerOf(signed, other ?? undefined), `${kind} as ${String(other)}`).not.toBe(relyingParty);
        }
      }
    }
    // Query and body may both say it, when they agree.
    expect((await ask(user, { query: "&kind=session", body: { kind: "session" } })).json<SignedRequest>().action).toBeNull();
  });

  it("refuses an unknown kind, or a query and body that disagree, naming the field", async () => {
    const user = await newUser(t.app);
    for (const how of [{ query: "&kind=mint" }, { body: { kind: "mint" } }, { body: { kind: 1 } }, { query: "&kind=claim", body: { kind: "session" } }]) {
      const response = await ask(user, how);
      expect(response.statusCode, JSON.stringify(how)).toBe(400);
      expect(response.json<{ message: string }>().message, JSON.stringify(how)).toMatch(/kind/);
    }
  });

  it("needs the user's own session", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    expect((await t.app.inject({ method: "POST", url: `/api/world-id/request?userAddress=${user.address}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: `/api/world-id/request?userAddress=${user.address}`, headers: bearer(other.token) })).statusCode).toBe(403);
  });
});

describe("GET /api/world-id/status", () => {
  const indexer = new FakeIndexer();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ indexer, env: { RATE_LIMIT_PER_ADDRESS: "1000" } });
  });
  afterAll(async () => {
    await t.close();
  });
  const sessionOf = (n: number) => `session_${n.toString(16).padStart(64, "0")}${"cd".repeat(32)}`;
  const status = (user: TestUser) => t.app.inject({ method: "GET", url: `/api/world-id/status?userAddress=${user.address}`, headers: bearer(user.token) });

  it("answers the session the chain records for the wallet's human, for another device to claim with", async () => {
    const user = await newUser(t.app);
    indexer.enrol(0x4a11n, sessionOf(1), { receiver: user.address });
    const response = await status(user);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ session: { idkitSessionId: sessionOf(1) }, movedToWorldId4: false });
  });

  it("says so when the wallet's 3.0 human moved; a 3.0 human who did not, and a wallet nobody used, have no session", async () => {
    const mover = await newUser(t.app);
    indexer.mint(mover.address, 0x3a11n);
    indexer.enrol(0x3a11n, sessionOf(2), { receiver: mover.address, movedFrom3: true });
    expect((await status(mover)).json()).toEqual({ session: { idkitSessionId: sessionOf(2) }, movedToWorldId4: true });
    const stayed = await newUser(t.app);
    indexer.mint(stayed.address, 0x3b0bn);
    expect((await status(stayed)).json()).toEqual({ session: null, movedToWorldId4: false });
    const nobody = await newUser(t.app);
    expect((await status(nobody)).json()).toEqual({ session: null, movedToWorldId4: false });
  });

  it("finds the session a wallet's 3.0 human enrolled anew (after 3.0 closed) by the wallet it was enrolled with", async () => {
    const user = await newUser(t.app);
    indexer.mint(user.address, 0x3c11n);
    indexer.enrol(0x4d11n, sessionOf(5), { receiver: user.address });
    expect((await status(user)).json()).toEqual({ session: { idkitSessionId: sessionOf(5) }, movedToWorldId4: false });
  });

  it("shows an enrolment at once, though the wallet was asked about a moment before", async () => {
    const user = await newUser(t.app);
    expect((await status(user)).json()).toEqual({ session: null, movedToWorldId4: false });
    indexer.enrol(0x4b11n, sessionOf(3), { receiver: user.address });
    expect((await status(user)).json()).toEqual({ session: { idkitSessionId: sessionOf(3) }, movedToWorldId4: false });
  });

  it("needs the user's own session", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    expect((await t.app.inject({ method: "GET", url: `/api/world-id/status?userAddress=${user.address}` })).statusCode).toBe(401);
    const foreign = await t.app.inject({ method: "GET", url: `/api/world-id/status?userAddress=${user.address}`, headers: bearer(other.token) });
    expect(foreign.statusCode).toBe(403);
  });

  it("while the indexer is down: the wallet's last answer, flagged stale; 503 for a wallet never answered", async () => {
    const known = await newUser(t.app);
    indexer.enrol(0x4c11n, sessionOf(4), { receiver: known.address });
    expect((await status(known)).json()).toEqual({ session: { idkitSessionId: sessionOf(4) }, movedToWorldId4: false });
    const never = await newUser(t.app);
    indexer.down = true;
    try {
      const stale = await status(known);
      expect(stale.statusCode).toBe(200);
      expect(stale.json()).toEqual({ session: { idkitSessionId: sessionOf(4) }, movedToWorldId4: false, stale: true });
      const unavailable = await status(never);
      expect(unavailable.statusCode).toBe(503);
      expect(unavailable.json()).toMatchObject({ error: "WORLD_ID_STATUS_UNAVAILABLE" });
    } finally {
      indexer.down = false;
    }
    expect((await status(known)).json()).toEqual({ session: { idkitSessionId: sessionOf(4) }, movedToWorldId4: false });
  });
});
