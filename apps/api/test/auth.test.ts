import { SIGN_IN_STATEMENT } from "@oro/clients";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { bearer, fetchNonce, signIn, siweMessage } from "./helpers/siwe.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const newAccount = () => privateKeyToAccount(generatePrivateKey());

async function postSiwe(payload: Record<string, unknown>) {
  return t.app.inject({ method: "POST", url: "/api/auth/siwe", payload });
}

describe("GET /api/auth/nonce", () => {
  it("issues a fresh alphanumeric nonce of at least 8 characters that expires in minutes", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/nonce" });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ nonce: string; expiresAt: string; statement: string }>();
    expect(body.nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(body.statement).toBe(SIGN_IN_STATEMENT);
    const ttl = Date.parse(body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    expect(await fetchNonce(t.app)).not.toBe(body.nonce);
  });
});

describe("POST /api/auth/siwe", () => {
  it("signs in an EOA: session cookie (httpOnly) and bearer token, user stored with username", async () => {
    const account = newAccount();
    const nonce = await fetchNonce(t.app);
    const message = siweMessage({ address: account.address, nonce });
    const response = await postSiwe({ message, signature: await account.signMessage({ message }), address: account.address, username: "alice" });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ token: string; user: { address: string; username: string; userId: string } }>();
    expect(body.user).toMatchObject({ address: account.address.toLowerCase(), username: "alice" });
    const cookie = response.cookies.find((c) => c.name === "oro_session");
    expect(cookie?.value).toBe(body.token);
    expect(cookie?.httpOnly).toBe(true);

    const byBearer = await t.app.inject({ method: "GET", url: "/api/auth/session", headers: bearer(body.token) });
    expect(byBearer.statusCode).toBe(200);
    expect(byBearer.json()).toEqual({ user: body.user });
    const byCookie = await t.app.inject({ method: "GET", url: "/api/auth/session", cookies: { oro_session: body.token } });
    expect(byCookie.json()).toEqual({ user: body.user });
  });

  it("keeps one user per address and updates the username on a later sign-in", async () => {
    const account = newAccount();
    await signIn(t.app, account, "first");
    const token = await signIn(t.app, account, "second");
    const me = await t.app.inject({ method: "GET", url: "/api/auth/session", headers: bearer(token) });
    expect(me.json<{ user: { username: string } }>().user.username).toBe("second");
    expect(await t.db.database.prisma.user.count({ where: { address: account.address.toLowerCase() } })).toBe(1);
  });

  it("refuses a replayed nonce: the same signed message works once", async () => {
    const account = newAccount();
    const nonce = await fetchNonce(t.app);
    const message = siweMessage({ address: account.address, nonce });
    const payload = { message, signature: await account.signMessage({ message }), address: account.address };
    expect((await postSiwe(payload)).statusCode).toBe(200);
    const replay = await postSiwe(payload);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ error: "NONCE_USED" });
  });

  it("refuses an expired nonce", async () => {
    const account = newAccount();
    const nonce = await fetchNonce(t.app);
    await t.db.database.prisma.authNonce.update({ where: { nonce }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const message = siweMessage({ address: account.address, nonce });
    const response = await postSiwe({ message, signature: await account.signMessage({ message }), address: account.address });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: "NONCE_EXPIRED" });
  });

  it("refuses a nonce the API never issued", async () => {
    const account = newAccount();
    const message = siweMessage({ address: account.address, nonce: "madeUpNonce12345" });
    const response = await postSiwe({ message, signature: await account.signMessage({ message }), address: account.address });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: "NONCE_UNKNOWN" });
  });

  it("refuses a message whose statement is not the product's", async () => {
    const account = newAccount();
    const message = siweMessage({ address: account.address, nonce: await fetchNonce(t.app), statement: "Something else" });
    const response = await postSiwe({ message, signature: await account.signMessage({ message }), address: account.address });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: "SIGNATURE_INVALID" });
  });

  it("refuses a message past its expiration time", async () => {
    const account = newAccount();
    const message = siweMessage({
      address: account.address,
      nonce: await fetchNonce(t.app),
      expirationTime: new Date(Date.now() - 60_000),
    });
    const response = await postSiwe({ message, signature: await account.signMessage({ message }), address: account.address });
    expect(response.statusCode).toBe(401);
    expect(response.json<{ message: string }>().message).toMatch(/expired/i);
  });

  it("refuses a message that is not a sign-in message", async () => {
    const account = newAccount();
    const response = await postSiwe({ message: "hello", signature: await account.signMessage({ message: "hello" }), address: account.address });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "SIWE_MESSAGE_INVALID" });
  });

  it("answers 400 naming the field and the rule for malformed input", async () => {
    const response = await postSiwe({ message: "x", signature: "nothex", address: "0x1234" });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; issues: { field: string; rule: string }[] }>();
    expect(body.error).toBe("VALIDATION_ERROR");
    expect(body.issues.map((issue) => issue.field).sort()).toEqual(["body.address", "body.signature"]);
    expect(body.issues.every((issue) => issue.rule.length > 0)).toBe(true);

    const missing = await postSiwe({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ issues: { field: string }[] }>().issues.map((i) => i.field)).toEqual(
      expect.arrayContaining(["body.message", "body.signature", "body.address"]),
    );
    const notJson = await t.app.inject({ method: "POST", url: "/api/auth/siwe", headers: { "content-type": "application/json" }, payload: "{" });
    expect(notJson.statusCode).toBe(400);
  });
});

describe("sessions", () => {
  it("GET /api/auth/session without a session is 401; with a made-up token too", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/auth/session" })).statusCode).toBe(401);
    const response = await t.app.inject({ method: "GET", url: "/api/auth/session", headers: bearer("nope") });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: "UNAUTHORIZED" });
  });

  it("an expired session is refused", async () => {
    const token = await signIn(t.app, newAccount());
    await t.db.database.prisma.session.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await t.app.inject({ method: "GET", url: "/api/auth/session", headers: bearer(token) })).statusCode).toBe(401);
  });

  it("long-expired nonces and sessions are purged, fresh ones kept", async () => {
    const token = await signIn(t.app, newAccount());
    const stale = await fetchNonce(t.app);
    await t.db.database.prisma.authNonce.update({ where: { nonce: stale }, data: { expiresAt: new Date(Date.now() - 2 * 86_400_000) } });
    const fresh = await fetchNonce(t.app);
    expect(await t.app.services.auth.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await t.db.database.prisma.authNonce.findUnique({ where: { nonce: stale } })).toBeNull();
    expect(await t.db.database.prisma.authNonce.findUnique({ where: { nonce: fresh } })).not.toBeNull();
    expect((await t.app.inject({ method: "GET", url: "/api/auth/session", headers: bearer(token) })).statusCode).toBe(200);
  });

  it("POST /api/auth/logout ends the session and clears the cookie", async () => {
    const token = await signIn(t.app, newAccount());
    const response = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === "oro_session")?.value).toBe("");
    expect((await t.app.inject({ method: "GET", url: "/api/auth/session", headers: bearer(token) })).statusCode).toBe(401);
  });
});

describe("sessions across API processes", () => {
  it("a sign-out in one process ends the session in another that has it cached", async () => {
    const other = await createTestApp({ testDatabase: t.db });
    try {
      const token = await signIn(t.app, newAccount());
      const session = (app: TestApp["app"]) => app.inject({ method: "GET", url: "/api/auth/session", headers: bearer(token) });
      expect((await session(other.app)).statusCode).toBe(200);
      expect((await session(t.app)).statusCode).toBe(200);
      expect((await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: bearer(token) })).statusCode).toBe(200);
      // The other process hears of it through the database (at once on PGlite, where both share one).
      const deadline = Date.now() + 3_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await session(other.app)).statusCode;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(401);
      expect((await session(t.app)).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});
