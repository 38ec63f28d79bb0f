import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { acceptCode, newUser, referralCodeOf } from "./helpers/referrals.js";
import { bearer, fetchNonce, siweMessage } from "./helpers/siwe.js";

// Issue 13, points 2–6: each defect as an attacker would meet it, through HTTP.
let db: TestDatabase;
const indexer = new FakeIndexer();
let t: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp({ indexer, testDatabase: db, env: { RATE_LIMIT_PER_ADDRESS: "5" } });
});
afterAll(async () => {
  await t.close();
  await db.drop();
});

async function postSiwe(app: TestApp["app"], payload: Record<string, string>) {
  return app.inject({ method: "POST", url: "/api/auth/siwe", payload });
}

describe("sign-in is bound to our domain, chain and time (point 2)", () => {
  const cases: [string, Parameters<typeof siweMessage>[0] extends infer I ? Partial<I> : never, string][] = [
    ["another site's domain", { domain: "phish.example" }, "SIWE_DOMAIN_MISMATCH"],
    ["our domain with another site's URI", { uri: "https://phish.example/login" }, "SIWE_URI_MISMATCH"],
    ["another chain", { chainId: 1 }, "SIWE_CHAIN_MISMATCH"],
    ["an hour-old message", { issuedAt: new Date(Date.now() - 3_600_000) }, "SIWE_ISSUED_AT_INVALID"],
    ["a message from the future", { issuedAt: new Date(Date.now() + 600_000) }, "SIWE_ISSUED_AT_INVALID"],
    ["a message claiming EIP-4361 version 2", { version: "2" }, "SIWE_VERSION_INVALID"],
  ];
  for (const [what, override, code] of cases) {
    it(`refuses ${what} (${code}), and its nonce is spent`, async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const nonce = await fetchNonce(t.app);
      const message = siweMessage({ address: account.address, nonce, ...override });
      const response = await postSiwe(t.app, { message, signature: await account.signMessage({ message }), address: account.address });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: code });
      const ours = siweMessage({ address: account.address, nonce });
      const retry = await postSiwe(t.app, { message: ours, signature: await account.signMessage({ message: ours }), address: account.address });
      expect(retry.json()).toMatchObject({ error: "NONCE_USED" });
    });
  }

  it("accepts our own message (the configured domain, World Chain, just issued)", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = siweMessage({ address: account.address, nonce: await fetchNonce(t.app) });
    expect((await postSiwe(t.app, { message, signature: await account.signMessage({ message }), address: account.address })).statusCode).toBe(200);
  });
});

describe("the session's authorization scheme", () => {
  it("reads Bearer in any case (RFC 9110), and nothing else as a token", async () => {
    const user = await newUser(t.app);
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const response = await t.app.inject({ method: "GET", url: "/api/auth/session", headers: { authorization: `${scheme} ${user.token}` } });
      expect(response.statusCode, scheme).toBe(200);
    }
    for (const header of [`Basic ${user.token}`, `Bearer${user.token}`, `Bearer ${user.token} extra`]) {
      const response = await t.app.inject({ method: "GET", url: "/api/auth/session", headers: { authorization: header } });
      expect(response.statusCode, header).toBe(401);
    }
  });
});

describe("nobody locks another user out (point 3)", () => {
  it("anonymous requests naming an address do not spend that address's budget", async () => {
    const victim = await newUser(t.app);
    const attacker = "198.51.100.23";
    for (let i = 0; i < 10; i++) {
      await t.app.inject({ method: "GET", url: `/api/streaks/clear-streak-cache?userAddress=${victim.address}`, remoteAddress: attacker });
      await t.app.inject({ method: "GET", url: `/api/streaks/current?userAddress=${victim.address}&bypassCache=true`, remoteAddress: attacker });
      await t.app.inject({ method: "GET", url: `/api/referrals/oro-earned?userAddress=${victim.address}`, remoteAddress: attacker });
    }
    const own = await t.app.inject({
      method: "GET",
      url: `/api/referral_codes/for_user?userAddress=${victim.address}&app=oro`,
      headers: bearer(victim.token),
      remoteAddress: "192.0.2.10",
    });
    expect(own.statusCode).toBe(200);
    // The attacker's own client IP is what ran out.
    const attackerAgain = await t.app.inject({ method: "GET", url: `/api/streaks/current?userAddress=${victim.address}&bypassCache=true`, remoteAddress: attacker });
    expect(attackerAgain.statusCode).toBe(429);
  });

  it("an anonymous clear during an indexer outage does not turn the owner's streak into a 503", async () => {
    const owner = await newUser(t.app);
    indexer.mint(privateKeyToAccount(generatePrivateKey()).address, 1n);
    indexer.mint(owner.account.address, 7_001n);
    const url = `/api/streaks/current?userAddress=${owner.address}`;
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(200);
    indexer.down = true;
    try {
      const clear = await t.app.inject({ method: "GET", url: `/api/streaks/clear-streak-cache?userAddress=${owner.address}`, remoteAddress: "198.51.100.99" });
      expect(clear.statusCode).toBe(401);
      const stale = await t.app.inject({ method: "GET", url: `${url}&bypassCache=true`, headers: bearer(owner.token) });
      expect(stale.statusCode).toBe(200);
      expect(stale.json()).toMatchObject({ stale: true, numOfMints: 1 });
    } finally {
      indexer.down = false;
    }
  });

  it("users behind one carrier NAT address are not locked out by normal use (default per-IP budget)", async () => {
    const natApp = await createTestApp({ indexer, testDatabase: db, env: { RATE_LIMIT_PER_IP: "" } });
    try {
      const nat = "100.64.12.34";
      const statuses: number[] = [];
      // 60 people open the app within a minute: sign in, then a dozen reads each.
      for (let person = 0; person < 60; person++) {
        const account = privateKeyToAccount(generatePrivateKey());
        const nonce = (await natApp.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: nat })).json<{ nonce: string }>().nonce;
        const message = siweMessage({ address: account.address, nonce });
        const signIn = await natApp.app.inject({
          method: "POST",
          url: "/api/auth/siwe",
          payload: { message, signature: await account.signMessage({ message }), address: account.address },
          remoteAddress: nat,
        });
        statuses.push(signIn.statusCode);
        const headers = bearer(signIn.json<{ token: string }>().token);
        const address = account.address.toLowerCase();
        for (const url of [
          `/api/referral_codes/for_user?userAddress=${address}&app=oro`,
          `/api/referrals/oro-earned?userAddress=${address}`,
          `/api/referrals/eligibility?userAddress=${address}`,
          `/api/streaks/current?userAddress=${address}`,
          `/api/streaks/claims?userAddress=${address}&limit=1`,
          `/api/user/is-in-us?userAddress=${address}`,
          `/api/polls`,
          `/api/auth/session`,
        ]) {
          statuses.push((await natApp.app.inject({ method: "GET", url, headers, remoteAddress: nat })).statusCode);
        }
      }
      expect(statuses.filter((status) => status === 429)).toEqual([]);
    } finally {
      await natApp.close();
    }
  });
});

describe("text inputs and the sign-in nonce (point 4)", () => {
  it("a NUL in the username is a 400, and the nonce still works for the corrected sign-in", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = siweMessage({ address: account.address, nonce: await fetchNonce(t.app) });
    const signature = await account.signMessage({ message });
    const bad = await postSiwe(t.app, { message, signature, address: account.address, username: "eve\u0000" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "VALIDATION_ERROR", issues: [{ field: "body.username" }] });
    const good = await postSiwe(t.app, { message, signature, address: account.address, username: "eve" });
    expect(good.statusCode).toBe(200);
  });

  it("control characters in other texts are refused at the schema", async () => {
    const user = await newUser(t.app);
    const code = await t.app.inject({
      method: "POST",
      url: `/api/referrals/refer_with_signature?userAddress=${user.address}&referralCode=ABCD%00FGH&signature=0x12`,
      headers: bearer(user.token),
    });
    expect(code.statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: "/api/polls?locale=en%00" })).statusCode).toBe(400);
  });
});

describe("one deadline per request for the indexer (point 5)", () => {
  let hanging: Server;
  let hangingApp: TestApp;
  beforeAll(async () => {
    // An indexer that accepts connections and never answers.
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const port = (hanging.address() as AddressInfo).port;
    hangingApp = await createTestApp({ testDatabase: db, env: { INDEXER_URL: `http://127.0.0.1:${port}`, INDEXER_TIMEOUT: "1s" } });
  });
  afterAll(async () => {
    await hangingApp.close();
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });

  it("oro-earned with several pending referrals answers within the indexer timeout, not once per referral", async () => {
    const referrer = await newUser(hangingApp.app);
    const code = await referralCodeOf(hangingApp.app, referrer);
    const prisma = db.database.prisma;
    const codeRow = await prisma.referralCode.findUniqueOrThrow({ where: { code } });
    for (let i = 0; i < 5; i++) {
      const referee = await prisma.user.create({ data: { address: privateKeyToAccount(generatePrivateKey()).address.toLowerCase() } });
      await prisma.referral.create({ data: { referrerId: codeRow.userId, refereeId: referee.id, referralCodeId: codeRow.id } });
    }
    const started = Date.now();
    const response = await hangingApp.app.inject({
      method: "GET",
      url: `/api/referrals/oro-earned?userAddress=${referrer.address}&forceBustCache=true`,
      headers: bearer(referrer.token),
    });
    const took = Date.now() - started;
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ usersReferred: [], totalOroEarnedWei: "0" });
    expect(took).toBeLessThan(2_500);
  });
});

describe("smaller defects (point 6)", () => {
  it("limit is decimal digits only: 1e1, 0x10 and ' 5' are refused", async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    for (const limit of ["1e1", "0x10", "%205", "5.0", "-1"]) {
      const response = await t.app.inject({ method: "GET", url: `/api/streaks/claims?userAddress=${address}&limit=${limit}` });
      expect(response.statusCode, limit).toBe(400);
      expect(response.json()).toMatchObject({ issues: [{ field: "querystring.limit" }] });
    }
    expect((await t.app.inject({ method: "GET", url: `/api/streaks/claims?userAddress=${address}&limit=5` })).statusCode).toBe(200);
  });

  it("the zero address is nobody's wallet", async () => {
    const response = await t.app.inject({ method: "GET", url: `/api/streaks/current?userAddress=0x${"0".repeat(40)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ issues: [{ field: "querystring.userAddress" }] });
  });

  it("a clash with another unique key during activation is not read as 'human already referred'", async () => {
    const referrer = await newUser(t.app);
    indexer.mint(referrer.account.address, 880_001n, Math.floor(Date.now() / 1000) - 86_400);
    const referee = await newUser(t.app);
    expect((await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer))).statusCode).toBe(200);
    const prisma = db.database.prisma;
    const referral = await prisma.referral.findFirstOrThrow({ where: { referee: { address: referee.address } } });
    // A reward row that should not be there: creating the real one breaks (referral_id, side), not the human index.
    await prisma.referralReward.create({
      data: {
        referralId: referral.id,
        side: "referrer",
        beneficiaryId: referral.referrerId,
        paymentType: "claimable",
        amountWei: "1",
        voucherNonce: "1",
        voucherSignature: "0x",
        chainId: 31337,
        contractAddress: "0x0000000000000000000000000000000000000001",
        status: "claimable",
      },
    });
    indexer.mint(referee.account.address, 880_002n);
    const earned = await t.app.inject({ method: "GET", url: `/api/referrals/oro-earned?userAddress=${referee.address}&forceBustCache=true`, headers: bearer(referee.token) });
    expect(earned.statusCode).toBe(200);
    expect(await prisma.referral.findUniqueOrThrow({ where: { id: referral.id } })).toMatchObject({ status: "pending", rejectionReason: null });
  });
});
