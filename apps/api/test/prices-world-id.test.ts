import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addresses, CHAIN_IDS, CLAIM_ACTION, ENROLMENT_ACTION } from "@oro/clients";
import { computeRpSignatureMessage } from "@worldcoin/idkit-core/signing";
import { hexToBytes, recoverMessageAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

const oro = addresses[CHAIN_IDS.development].Oro.toLowerCase();
const wld = "0x2cfc85d8e48f8eab294be644d9e25c3030863003";
const unknown = "0x00000000000000000000000000000000000000ee";

describe("GET /api/erc20/token-price with the development source", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("prices the local ORO deterministically, keyed by lower-case address; an unknown token is absent", async () => {
    const response = await t.app.inject({ method: "GET", url: `/api/erc20/token-price?tokenAddresses=${addresses[CHAIN_IDS.development].Oro}&tokenAddresses=${unknown}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ [oro]: { priceUsd: 0.0125, percentChange24hr: 4.2 } });
    const single = await t.app.inject({ method: "GET", url: `/api/erc20/token-price?tokenAddresses=${oro}` });
    expect(single.json()).toEqual(response.json());
  });

  it("answers 400 for a missing, malformed or too long list", async () => {
    const missing = await t.app.inject({ method: "GET", url: "/api/erc20/token-price" });
    expect(missing.json()).toMatchObject({ issues: [{ field: "querystring.tokenAddresses" }] });
    const bad = await t.app.inject({ method: "GET", url: "/api/erc20/token-price?tokenAddresses=0xnope" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ issues: { field: string }[] }>().issues[0]?.field).toBe("querystring.tokenAddresses.0");
    const many = Array.from({ length: 26 }, (_, i) => `tokenAddresses=0x${i.toString(16).padStart(40, "0")}`).join("&");
    expect((await t.app.inject({ method: "GET", url: `/api/erc20/token-price?${many}` })).statusCode).toBe(400);
  });
});

describe("GET /api/erc20/token-price with the HTTP source (a stand-in for the production price API)", () => {
  let source: Server;
  let t: TestApp;
  const asked: { url: string; key: string | undefined }[] = [];
  let down = false;

  beforeAll(async () => {
    source = createServer((request, response) => {
      asked.push({ url: request.url ?? "", key: request.headers["x-cg-pro-api-key"] as string | undefined });
      if (down) {
        response.writeHead(502).end();
        return;
      }
      const url = new URL(request.url ?? "", "http://localhost");
      const tokens = (url.searchParams.get("contract_addresses") ?? "").split(",");
      const quotes: Record<string, { usd: number; usd_24h_change: number | null }> = {};
      if (tokens.includes(oro)) quotes[oro] = { usd: 0.02, usd_24h_change: -1.5 };
      if (tokens.includes(wld)) quotes[wld] = { usd: 1.1, usd_24h_change: null };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(quotes));
    });
    await new Promise<void>((resolve) => source.listen(0, "127.0.0.1", resolve));
    t = await createTestApp({
      env: {
        PRICE_PROVIDER: "http",
        PRICE_API_URL: `http://127.0.0.1:${(source.address() as AddressInfo).port}/api/v3`,
        PRICE_API_KEY: "price-key",
      },
    });
  });
  afterAll(async () => {
    await t.close();
    source.closeAllConnections();
    await new Promise((resolve) => source.close(resolve));
  });
  afterEach(() => {
    vi.useRealTimers();
    down = false;
  });

  const prices = (...tokens: string[]) => t.app.inject({ method: "GET", url: `/api/erc20/token-price?tokenAddresses=${tokens.join(",")}` });

  it("asks the source once a minute for the tokens not cached, with the API key", async () => {
    const first = await prices(oro, wld, unknown);
    expect(first.json()).toEqual({ [oro]: { priceUsd: 0.02, percentChange24hr: -1.5 }, [wld]: { priceUsd: 1.1, percentChange24hr: 0 } });
    expect(asked).toHaveLength(1);
    const url = new URL(asked[0]?.url ?? "", "http://localhost");
    expect(url.pathname).toBe("/api/v3/simple/token_price/world-chain");
    expect(url.searchParams.get("vs_currencies")).toBe("usd");
    expect(url.searchParams.get("include_24hr_change")).toBe("true");
    expect(asked[0]?.key).toBe("price-key");

    // Cached, the unknown token too.
    expect((await prices(wld, unknown)).json()).toEqual({ [wld]: { priceUsd: 1.1, percentChange24hr: 0 } });
    expect(asked).toHaveLength(1);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    await prices(oro);
    expect(asked).toHaveLength(2);
  });

  it("answers 503 PRICE_UNAVAILABLE when the source fails and nothing is cached", async () => {
    down = true;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 });
    const response = await prices(oro);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "PRICE_UNAVAILABLE" });
  });
});

describe("POST /api/world-id/request", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_ADDRESS: "1000" } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("returns IDKit's rp_context for the claim action, signed by the relying party's key", async () => {
    const user = await newUser(t.app);
    const response = await t.app.inject({ method: "POST", url: `/api/world-id/request?userAddress=${user.address}`, headers: bearer(user.token) });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ rp_id: string; nonce: `0x${string}`; created_at: number; expires_at: number; signature: `0x${string}`; action: string }>();
    expect(body).toMatchObject({ rp_id: t.config.worldId.rpId, action: CLAIM_ACTION });
    expect(body.expires_at - body.created_at).toBe(300);
    expect(Math.abs(body.created_at - Date.now() / 1000)).toBeLessThan(5);
    // The signature is the key's EIP-191 signature over IDKit's message: nonce, times and action.
    const message = computeRpSignatureMessage(hexToBytes(body.nonce), body.created_at, body.expires_at, CLAIM_ACTION);
    const signer = await recoverMessageAddress({ message: { raw: message }, signature: body.signature });
    expect(signer).toBe(privateKeyToAccount(t.config.worldId.signingKey).address);

    const again = response.json<{ nonce: string }>();
    const next = (await t.app.inject({ method: "POST", url: `/api/world-id/request?userAddress=${user.address}`, headers: bearer(user.token) })).json<{ nonce: string }>();
    expect(next.nonce).not.toBe(again.nonce);
  });

  it("signs World ID 4.0's enrolment action, and session requests without an action (as IDKit's createSession/proveSession)", async () => {
    const user = await newUser(t.app);
    const signer = privateKeyToAccount(t.config.worldId.signingKey).address;
    type Signed = { nonce: `0x${string}`; created_at: number; expires_at: number; signature: `0x${string}`; action: string | null };
    const ask = async (kind: string) => (await t.app.inject({ method: "POST", url: `/api/world-id/request?userAddress=${user.address}&kind=${kind}`, headers: bearer(user.token) })).json<Signed>();
    const enrolment = await ask("enrolment");
    expect(enrolment.action).toBe(ENROLMENT_ACTION);
    const enrolmentMessage = computeRpSignatureMessage(hexToBytes(enrolment.nonce), enrolment.created_at, enrolment.expires_at, ENROLMENT_ACTION);
    expect(await recoverMessageAddress({ message: { raw: enrolmentMessage }, signature: enrolment.signature })).toBe(signer);
    const session = await ask("session");
    expect(session.action).toBeNull();
    const sessionMessage = computeRpSignatureMessage(hexToBytes(session.nonce), session.created_at, session.expires_at);
    expect(await recoverMessageAddress({ message: { raw: sessionMessage }, signature: session.signature })).toBe(signer);
    // A session signature is not one for the claim action (World App would refuse it for a uniqueness proof).
    const asClaim = computeRpSignatureMessage(hexToBytes(session.nonce), session.created_at, session.expires_at, CLAIM_ACTION);
    expect(await recoverMessageAddress({ message: { raw: asClaim }, signature: session.signature })).not.toBe(signer);
  });

  it("refuses an unknown kind, naming the field", async () => {
    const user = await newUser(t.app);
    const response = await t.app.inject({ method: "POST", url: `/api/world-id/request?userAddress=${user.address}&kind=mint`, headers: bearer(user.token) });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain("kind");
  });

  it("needs the user's session", async () => {
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
  const SESSION = `session_${"ab".repeat(32)}01${"cd".repeat(31)}`;
  const status = (user: { address: string; token: string }) =>
    t.app.inject({ method: "GET", url: `/api/world-id/status?userAddress=${user.address}`, headers: bearer(user.token) });

  it("answers the session the chain records for the wallet's human, for another device to claim with", async () => {
    const user = await newUser(t.app);
    indexer.mint(user.address, 0x4a11n);
    indexer.enrol(0x4a11n, SESSION);
    expect((await status(user)).json()).toEqual({ session: { idkitSessionId: SESSION }, movedToWorldId4: false });
  });

  it("says so when the wallet's 3.0 human moved, and answers no session for a wallet nobody enrolled", async () => {
    const mover = await newUser(t.app);
    indexer.mint(mover.address, 0x3a11n);
    indexer.enrol(0x3a11n, SESSION, true);
    expect((await status(mover)).json()).toMatchObject({ movedToWorldId4: true });
    const nobody = await newUser(t.app);
    expect((await status(nobody)).json()).toEqual({ session: null, movedToWorldId4: false });
  });

  it("needs the user's own session, and answers a fast 503 while the indexer is down", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    expect((await t.app.inject({ method: "GET", url: `/api/world-id/status?userAddress=${user.address}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: `/api/world-id/status?userAddress=${user.address}`, headers: bearer(other.token) })).statusCode).toBe(403);
    indexer.down = true;
    try {
      const response = await status(user);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ error: "WORLD_ID_STATUS_UNAVAILABLE" });
    } finally {
      indexer.down = false;
    }
  });
});
