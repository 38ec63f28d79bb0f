import { toHex } from "viem";
import { describe, expect, it } from "vitest";
import { INDEXER_MAX_LIMIT } from "../src/services/indexer/client.js";
import { allowListHuman } from "./helpers/allow-list.js";
import { testAppForFile } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { DAY, now, perHumanCalls } from "./helpers/per-human.js";
import { acceptCode, newUser, oroEarned, referralCodeOf, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

// One human, one reward (issue 13, point 1; the attacks: referrals-per-human.test.ts): eligibility, acceptance and
// activation judge a wallet's user as the human who first minted to it, with the indexer's answers from the fake indexer.
const indexer = new FakeIndexer();
const t = testAppForFile({ indexer });
const { newHuman, verifiedUser, referralOf, eligibility } = perHumanCalls(t, indexer, 50_000n);

describe("the human behind a wallet is its first minter, on every path", () => {
  // W's owner H1 verified and claimed to W first; later another human, H2, mints to W (anyone may mint to any
  // wallet). Eligibility, acceptance and activation all judge W's user as H1, never as H2.
  const humanHex = (human: bigint) => toHex(human, { size: 32 });
  const prisma = () => t.db.database.prisma;
  async function ownedBy(owner: bigint, then: bigint): Promise<TestUser> {
    const w = await newUser(t.app);
    indexer.mint(w.account.address, owner, now() - 3 * DAY);
    indexer.mint(w.account.address, then, now() - DAY);
    return w;
  }
  async function rememberedHuman(user: TestUser) {
    return (await prisma().user.findUniqueOrThrow({ where: { address: user.address } })).nullifierHash;
  }

  it("H1 allow-listed: W's user is eligible, accepts, and is paid as H1, though H2 minted to W last", async () => {
    const [h1, h2] = [newHuman(), newHuman()];
    const w = await ownedBy(h1, h2);
    await allowListHuman(prisma(), h1, "support case");
    expect((await eligibility(w)).json()).toEqual({ eligible: true, reason: "ALLOW_LISTED", referralApplied: false, referrerUsername: null });
    const accepted = await acceptCode(t.app, w, await referralCodeOf(t.app, await verifiedUser()));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ referral: { status: "payable" } });
    expect((await oroEarned(t.app, w)).rewardForBeingReferee).not.toBeNull();
    expect(await referralOf(w)).toMatchObject({ status: "payable", refereeNullifierHash: humanHex(h1) });
    expect(await rememberedHuman(w)).toBe(h1.toString());
  });

  it("H2's own referral on another wallet does not block W's user", async () => {
    const [h1, h2] = [newHuman(), newHuman()];
    const h2Own = await newUser(t.app);
    expect((await acceptCode(t.app, h2Own, await referralCodeOf(t.app, await verifiedUser()))).statusCode).toBe(200);
    indexer.mint(h2Own.account.address, h2);
    expect((await oroEarned(t.app, h2Own)).rewardForBeingReferee).not.toBeNull();

    const w = await newUser(t.app);
    indexer.mint(w.account.address, h1, now() - 3 * DAY);
    indexer.mint(w.account.address, h2, now() + 60);
    await allowListHuman(prisma(), h1);
    // Accepting first (no eligibility read before): acceptance learns the human behind W itself.
    const accepted = await acceptCode(t.app, w, await referralCodeOf(t.app, await verifiedUser("rui")));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ referral: { status: "payable" } });
    expect(await referralOf(w)).toMatchObject({ refereeNullifierHash: humanHex(h1) });
    expect(await rememberedHuman(w)).toBe(h1.toString());
    expect((await eligibility(w)).json()).toEqual({ eligible: false, reason: "ALREADY_REFERRED", referralApplied: true, referrerUsername: "rui" });
  });

  it("a referral held by H1 on another wallet blocks W's user (allow-listed or not); H2 does not decide", async () => {
    const [h1, h2] = [newHuman(), newHuman()];
    const h1Other = await newUser(t.app);
    expect((await acceptCode(t.app, h1Other, await referralCodeOf(t.app, await verifiedUser()))).statusCode).toBe(200);
    indexer.mint(h1Other.account.address, h1);
    expect((await oroEarned(t.app, h1Other)).rewardForBeingReferee).not.toBeNull();

    const w = await ownedBy(h1, h2);
    expect((await eligibility(w)).json()).toMatchObject({ eligible: false, reason: "ALREADY_REFERRED", referralApplied: false });
    const notEligible = await acceptCode(t.app, w, await referralCodeOf(t.app, await verifiedUser()));
    expect(notEligible.statusCode).toBe(403);
    expect(notEligible.json()).toMatchObject({ error: "NOT_ELIGIBLE" });
    await allowListHuman(prisma(), h1);
    expect((await eligibility(w)).json()).toMatchObject({ eligible: false, reason: "ALREADY_REFERRED" });
    const taken = await acceptCode(t.app, w, await referralCodeOf(t.app, await verifiedUser()));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: "REFERRAL_ALREADY_EXISTS" });
  });

  it("an invite accepted before any mint is decided as the first minter, whoever mints to the wallet after", async () => {
    const [h1, h2] = [newHuman(), newHuman()];
    // H2 had claimed long before (on their own wallet) and holds a referral there.
    const h2Own = await newUser(t.app);
    expect((await acceptCode(t.app, h2Own, await referralCodeOf(t.app, await verifiedUser()))).statusCode).toBe(200);
    indexer.mint(h2Own.account.address, h2);
    expect((await oroEarned(t.app, h2Own)).rewardForBeingReferee).not.toBeNull();

    const w = await newUser(t.app);
    expect((await acceptCode(t.app, w, await referralCodeOf(t.app, await verifiedUser()))).statusCode).toBe(200);
    indexer.mint(w.account.address, h1, now() + 60);
    indexer.mint(w.account.address, h2, now() + 120);
    expect((await oroEarned(t.app, w)).rewardForBeingReferee).not.toBeNull();
    expect(await referralOf(w)).toMatchObject({ status: "payable", refereeNullifierHash: humanHex(h1) });
    expect(await rememberedHuman(w)).toBe(h1.toString());
  });

  it("once learnt, the human stays: more mints by H2 than the indexer lists do not make W's user H2", async () => {
    const [h1, h2] = [newHuman(), newHuman()];
    const w = await newUser(t.app);
    indexer.mint(w.account.address, h1, now() - 3 * DAY);
    await allowListHuman(prisma(), h1);
    expect((await eligibility(w)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });
    // H1's first mint to W is no longer in the indexer's newest page.
    for (let i = 0; i < INDEXER_MAX_LIMIT; i++) indexer.mint(w.account.address, h2, now() - 2 * DAY + i);
    const response = await t.app.inject({ method: "GET", url: `/api/streaks/clear-streak-cache?userAddress=${w.address}`, headers: bearer(w.token) });
    expect(response.statusCode).toBe(200);
    expect((await eligibility(w)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });
    const accepted = await acceptCode(t.app, w, await referralCodeOf(t.app, await verifiedUser()));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ referral: { status: "payable" } });
    expect(await referralOf(w)).toMatchObject({ refereeNullifierHash: humanHex(h1) });
  });

  it("the first minter is found though more mints by H2 than the indexer lists came before the API ever looked", async () => {
    const [h1, h2] = [newHuman(), newHuman()];
    await allowListHuman(prisma(), h1);
    // Two wallets: each receives H1's mint first, then a full page and more of H2's, before any request about them.
    const [w, w2] = [await newUser(t.app), await newUser(t.app)];
    for (const wallet of [w, w2]) {
      indexer.mint(wallet.account.address, h1, now() - 3 * DAY);
      for (let i = 0; i <= INDEXER_MAX_LIMIT; i++) indexer.mint(wallet.account.address, h2, now() - 2 * DAY + i);
    }
    expect(await rememberedHuman(w)).toBeNull();
    // Eligibility (through the streak cache) judges W as H1, allow-listed, not as H2 who has claimed.
    expect((await eligibility(w)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });
    expect(await rememberedHuman(w)).toBe(h1.toString());
    // Accepting an invite (the indexer asked directly) judges W2 as H1 too, and the referral holds H1.
    expect(await rememberedHuman(w2)).toBeNull();
    const accepted = await acceptCode(t.app, w2, await referralCodeOf(t.app, await verifiedUser()));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ referral: { status: "payable" } });
    expect(await referralOf(w2)).toMatchObject({ refereeNullifierHash: humanHex(h1) });
    expect(await rememberedHuman(w2)).toBe(h1.toString());
  });

  it("activation keeps the human learnt before (a poll vote), though the wallet's newest page is another human's", async () => {
    const [h1, h2] = [newHuman(), newHuman()];
    // H2 had claimed before the invite is accepted, on their own wallet.
    indexer.mint((await newUser(t.app)).account.address, h2, now() - 3 * DAY);
    const w = await newUser(t.app);
    expect((await acceptCode(t.app, w, await referralCodeOf(t.app, await newUser(t.app)))).statusCode).toBe(200);
    indexer.mint(w.account.address, h1, now() + 60);
    const poll = await t.app.services.polls.create({ question: { en: "Q" }, options: [{ en: "a" }, { en: "b" }] });
    const voted = await t.app.inject({ method: "POST", url: `/api/polls/${poll.id}/vote?userAddress=${w.address}`, payload: { optionId: poll.options[0]?.id ?? "" }, headers: bearer(w.token) });
    expect(voted.statusCode).toBe(200);
    expect(await rememberedHuman(w)).toBe(h1.toString());
    for (let i = 0; i < INDEXER_MAX_LIMIT; i++) indexer.mint(w.account.address, h2, now() + 120 + i);

    // The referrer was not verified yet: the referral waited. Now it is decided, as H1 (first mint after the acceptance).
    expect(await referralOf(w)).toMatchObject({ status: "pending" });
    const referral = await referralOf(w);
    const referrer = await prisma().user.findUniqueOrThrow({ where: { id: referral.referrerId } });
    indexer.mint(referrer.address as `0x${string}`, newHuman(), now() - DAY);
    expect((await oroEarned(t.app, w)).rewardForBeingReferee).not.toBeNull();
    expect(await referralOf(w)).toMatchObject({ status: "payable", refereeNullifierHash: humanHex(h1) });
  });
});
