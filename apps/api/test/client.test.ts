import { addresses, buildReferralMessage, CHAIN_IDS, createApiClient, REFERRAL_APP, type ApiClient } from "@oro/clients";
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
    // A referrer is paid only when a human has minted to their wallet.
    indexer.mint(referrer.account.address, 76n, Math.floor(Date.now() / 1000) - 86_400);
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

  it("reaches the second part's routes with their typed parameters: streaks, reminders, email, prices, polls, World ID", async () => {
    const user = await signedInClient("ana");
    indexer.mint(user.account.address, 4242n);
    const streak = await user.client.GET("/api/streaks/current", { params: { query: { userAddress: user.address, bypassCache: "true" } } });
    expect(streak.data).toMatchObject({ currentStreak: 1, numOfMints: 1, stale: false });
    const claims = await user.client.GET("/api/streaks/claims", { params: { query: { userAddress: user.address, limit: 1 } } });
    expect(claims.data?.claims).toHaveLength(1);

    const reminder = await user.client.POST("/api/notifications/oro_claim", { params: { query: { userAddress: user.address, locale: "pt-BR" } } });
    expect(reminder.data).toMatchObject({ locale: "pt", replaced: false });
    const email = await user.client.POST("/api/user/email", { params: { query: { userAddress: user.address } }, body: { email: "Ana@Example.com" } });
    expect(email.data?.submitted).toBe(true);
    const rewards = await user.client.GET("/api/user/uno_rewards", { params: { query: { userAddress: user.address } } });
    expect(rewards.data).toEqual({ rewardStatus: "Ineligible", totalSwapVolumeUsd: 0, minSwapVolumeUsd: 5 });

    const oro = addresses[CHAIN_IDS.development].Oro;
    const prices = await user.client.GET("/api/erc20/token-price", {
      params: { query: { tokenAddresses: [oro, "0x00000000000000000000000000000000000000ee"] } },
    });
    expect(Object.keys(prices.data ?? {})).toEqual([oro.toLowerCase()]);

    const poll = await t.app.services.polls.create({ question: { en: "Typed?" }, options: [{ en: "yes" }, { en: "no" }] });
    const optionId = poll.options.find((option) => option.position === 0)?.id ?? "";
    const voted = await user.client.POST("/api/polls/{id}/vote", {
      params: { path: { id: poll.id }, query: { userAddress: user.address } },
      body: { optionId },
    });
    expect(voted.data?.poll).toMatchObject({ myVote: optionId, totalVotes: 1 });
    const listed = await user.client.GET("/api/polls", { params: { query: { locale: "en" } } });
    expect(listed.data?.polls.find((entry) => entry.id === poll.id)?.myVote).toBe(optionId);

    const request = await user.client.POST("/api/world-id/request", { params: { query: { userAddress: user.address } } });
    expect(request.data).toMatchObject({ action: "claim-tokens-action", rp_id: "rp_0000000000007a69" });
    const session = await user.client.POST("/api/world-id/request", { params: { query: { userAddress: user.address } }, body: { kind: "session" } });
    expect(session.data).toMatchObject({ action: null, rp_id: "rp_0000000000007a69" });
    const status = await user.client.GET("/api/world-id/status", { params: { query: { userAddress: user.address } } });
    expect(status.data).toEqual({ session: null, movedToWorldId4: false });
  });
});
