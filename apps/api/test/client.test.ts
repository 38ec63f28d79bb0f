import { buildReferralMessage, createApiClient, REFERRAL_APP, type ApiClient } from "@oro/clients";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { siweMessage } from "./helpers/siwe.js";

// The generated typed client of @oro/clients against the running API over HTTP: what the web app does.
let t: TestApp;
let baseUrl: string;
const indexer = new FakeIndexer();

beforeAll(async () => {
  t = await createTestApp({ indexer });
  baseUrl = await t.app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await t.close();
});

async function signedInClient(username: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  const current: { token?: string } = {};
  const client = createApiClient(baseUrl, { token: () => current.token });
  const nonce = await client.GET("/api/auth/nonce");
  if (!nonce.data) throw new Error("no nonce");
  const message = siweMessage({ address: account.address, nonce: nonce.data.nonce, statement: nonce.data.statement });
  const session = await client.POST("/api/auth/siwe", {
    body: { message, signature: await account.signMessage({ message }), address: account.address, username },
  });
  if (!session.data) throw new Error(`sign-in failed: ${JSON.stringify(session.error)}`);
  current.token = session.data.token;
  return { client, account, address: account.address.toLowerCase() };
}

async function codeOf(client: ApiClient, userAddress: string): Promise<string> {
  const { data } = await client.GET("/api/referral_codes/for_user", { params: { query: { userAddress, app: REFERRAL_APP } } });
  if (!data) throw new Error("no code");
  return data.referralCode.referralCode;
}

describe("the typed API client (@oro/clients) against the running API", () => {
  it("signs in, shares a code, accepts it with a signed invite, and reads the earnings", async () => {
    const referrer = await signedInClient("uma");
    const referee = await signedInClient("ivo");
    const code = await codeOf(referrer.client, referrer.address);

    const { data: nonce } = await referee.client.GET("/api/referrals/nonce", { params: { query: { userAddress: referee.address } } });
    if (!nonce) throw new Error("no referral nonce");
    const signature = await referee.account.signMessage({
      message: buildReferralMessage({ referralCode: code, address: referee.address, nonce: nonce.nonce }),
    });
    const accepted = await referee.client.POST("/api/referrals/refer_with_signature", {
      params: { query: { userAddress: referee.address, referralCode: code.toLowerCase(), signature, nonce: nonce.nonce } },
    });
    expect(accepted.data?.referralUser.username).toBe("uma");

    indexer.mint(referee.account.address, 77n);
    const earned = await referrer.client.GET("/api/referrals/oro-earned", {
      params: { query: { userAddress: referrer.address, forceBustCache: "true" } },
    });
    expect(earned.data?.usersReferred.map((user) => [user.username, user.paymentType, user.hasClaimed])).toEqual([["ivo", "claimable", false]]);
    expect(earned.data?.usersReferred[0]?.claimableSignature?.message.account.toLowerCase()).toBe(referrer.address);
  });

  it("hands back the API's errors as typed values", async () => {
    const user = await signedInClient("zed");
    const again = await user.client.POST("/api/referrals/refer_with_signature", {
      params: { query: { userAddress: user.address, referralCode: "ZZZZZZZZ", signature: "" } },
    });
    expect(again.response.status).toBe(400);
    expect(again.error?.error).toBe("SIGNATURE_REQUIRED");
    const invalid = await user.client.GET("/api/referrals/oro-earned", { params: { query: { userAddress: "0x12" } } });
    expect(invalid.error?.issues?.[0]).toMatchObject({ field: "querystring.userAddress" });
    const signedOut = createApiClient(baseUrl, { credentials: "omit" });
    const refused = await signedOut.GET("/api/referral_codes/for_user", { params: { query: { userAddress: user.address, app: "oro" } } });
    expect(refused.response.status).toBe(401);
  });
});
