import { toHex } from "viem";
import { beforeEach, describe, expect, it } from "vitest";
import { INDEXER_MAX_LIMIT } from "../src/services/indexer/client.js";
import { allowListEntries, allowListHuman, allowListWallet } from "./helpers/allow-list.js";
import { testAppForFile } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { DAY, now, perHumanCalls } from "./helpers/per-human.js";
import { acceptCode, newUser, oroEarned, referralCodeOf, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

// One human, one reward (issue 13, point 1): the rules are per World ID human, not per wallet. Each test
// plays an attack through HTTP, with the indexer's answers (who minted to which wallet) from the fake indexer.
// The human behind a wallet on every path: referrals-first-minter.test.ts.
const indexer = new FakeIndexer();
const t = testAppForFile({ indexer });
const { newHuman, verifiedUser, referralOf, eligibility } = perHumanCalls(t, indexer, 50_000n);
beforeEach(() => {
  indexer.down = false;
});

describe("farming the referral programme with a second wallet", () => {
  it("a referrer wallet nobody has minted to earns nothing; when its human turns out to be the referee's, nobody does", async () => {
    const human = newHuman();
    const w1 = await newUser(t.app);
    const w2 = await newUser(t.app);
    expect((await acceptCode(t.app, w2, await referralCodeOf(t.app, w1))).statusCode).toBe(200);
    indexer.mint(w2.account.address, human);

    expect((await oroEarned(t.app, w1)).usersReferred).toEqual([]);
    expect((await oroEarned(t.app, w2)).rewardForBeingReferee).toBeNull();
    expect(await referralOf(w2)).toMatchObject({ status: "pending" });

    // The next day the same human mints to the referrer's wallet: one human on both sides.
    indexer.mint(w1.account.address, human, now() + DAY);
    expect((await oroEarned(t.app, w1)).totalOroEarnedWei).toBe("0");
    expect(await referralOf(w2)).toMatchObject({ status: "rejected", rejectionReason: "SELF_REFERRAL_SAME_HUMAN" });
  });

  it("pays once the referrer's wallet has a human of its own", async () => {
    const referrer = await newUser(t.app);
    const referee = await newUser(t.app);
    await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer));
    indexer.mint(referee.account.address, newHuman());
    expect((await oroEarned(t.app, referrer)).usersReferred).toEqual([]);
    indexer.mint(referrer.account.address, newHuman());
    expect((await oroEarned(t.app, referrer)).usersReferred).toHaveLength(1);
    expect((await oroEarned(t.app, referee)).rewardForBeingReferee).not.toBeNull();
    expect(await referralOf(referee)).toMatchObject({ status: "payable" });
  });

  it("a human who has claimed before is not a new referee through a fresh wallet", async () => {
    const human = newHuman();
    const oldWallet = await newUser(t.app);
    indexer.mint(oldWallet.account.address, human, now() - 3 * DAY);
    const referrer = await verifiedUser();
    const fresh = await newUser(t.app);
    // Nothing is known about the fresh wallet yet: it may accept.
    expect((await eligibility(fresh)).json()).toMatchObject({ eligible: true, reason: "NEVER_CLAIMED" });
    expect((await acceptCode(t.app, fresh, await referralCodeOf(t.app, referrer))).statusCode).toBe(200);
    indexer.mint(fresh.account.address, human);

    expect((await oroEarned(t.app, referrer)).usersReferred).toEqual([]);
    expect((await oroEarned(t.app, fresh)).rewardForBeingReferee).toBeNull();
    expect(await referralOf(fresh)).toMatchObject({ status: "rejected", rejectionReason: "REFEREE_MINTED_BEFORE_ACCEPTANCE" });
  });

  it("a human whose first mint came after the acceptance stays eligible, whichever wallet it went to", async () => {
    const human = newHuman();
    const referrer = await verifiedUser();
    const invited = await newUser(t.app);
    const other = await newUser(t.app);
    await acceptCode(t.app, invited, await referralCodeOf(t.app, referrer));
    indexer.mint(other.account.address, human, now() + 60);
    indexer.mint(invited.account.address, human, now() + DAY);
    expect((await oroEarned(t.app, invited)).rewardForBeingReferee).not.toBeNull();
  });

  it("one referral per human: two fresh wallets of one human, two referrers, one reward", async () => {
    const human = newHuman();
    const [r1, r2] = [await verifiedUser(), await verifiedUser()];
    const [w1, w2] = [await newUser(t.app), await newUser(t.app)];
    await acceptCode(t.app, w1, await referralCodeOf(t.app, r1));
    await acceptCode(t.app, w2, await referralCodeOf(t.app, r2));
    indexer.mint(w1.account.address, human);
    indexer.mint(w2.account.address, human, now() + DAY);
    const paid = (await oroEarned(t.app, r1)).usersReferred.length + (await oroEarned(t.app, r2)).usersReferred.length;
    expect(paid).toBe(1);
    const statuses = [(await referralOf(w1)).status, (await referralOf(w2)).status].sort();
    expect(statuses).toEqual(["payable", "rejected"]);
  });

  it("a human who once minted to the referrer's wallet is the same human on both sides, however many mints came since", async () => {
    // HR owns the referrer's wallet; H minted to it once, then HR more than a page of times. H is allow-listed, so
    // only the self-referral rule stands between H and a reward from HR, on either path.
    const [hr, h] = [newHuman(), newHuman()];
    await allowListHuman(t.db.database.prisma, h);
    const referrer = await newUser(t.app);
    indexer.mint(referrer.account.address, hr, now() - 300 * DAY);
    indexer.mint(referrer.account.address, h, now() - 299 * DAY);
    for (let i = 0; i <= INDEXER_MAX_LIMIT; i++) indexer.mint(referrer.account.address, hr, now() - 298 * DAY + i * DAY);
    const code = await referralCodeOf(t.app, referrer);

    // Acceptance with H known behind the wallet: refused.
    const known = await newUser(t.app);
    indexer.mint(known.account.address, h, now() - DAY);
    const refused = await acceptCode(t.app, known, code);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: "NO_SELF_REFERRAL" });

    // Activation, H learnt at the referee's first mint after the acceptance: rejected, nobody paid.
    const fresh = await newUser(t.app);
    expect((await acceptCode(t.app, fresh, code)).statusCode).toBe(200);
    indexer.mint(fresh.account.address, h, now() + 60);
    expect((await oroEarned(t.app, fresh)).rewardForBeingReferee).toBeNull();
    expect(await referralOf(fresh)).toMatchObject({ status: "rejected", rejectionReason: "SELF_REFERRAL_SAME_HUMAN" });
    expect((await oroEarned(t.app, referrer)).usersReferred).toEqual([]);
  });

  it("a known human who already holds a referral cannot accept again on another wallet (allow-listed or not)", async () => {
    const human = newHuman();
    const referrer = await verifiedUser();
    const first = await newUser(t.app);
    await acceptCode(t.app, first, await referralCodeOf(t.app, referrer));
    indexer.mint(first.account.address, human);
    expect((await oroEarned(t.app, first)).rewardForBeingReferee).not.toBeNull();

    const second = await newUser(t.app);
    indexer.mint(second.account.address, human, now() + DAY);
    await allowListWallet(t.db.database.prisma, indexer, second.address, "support case");
    expect((await eligibility(second)).json()).toMatchObject({ eligible: false, reason: "ALREADY_REFERRED", referralApplied: false });
    const refused = await acceptCode(t.app, second, await referralCodeOf(t.app, await verifiedUser()));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: "REFERRAL_ALREADY_EXISTS" });
  });
});

describe("the allow-list is per human, not per wallet", () => {
  const allowList = (wallet: TestUser, note?: string) => allowListWallet(t.db.database.prisma, indexer, wallet.address, note);
  const humanHex = (human: bigint) => toHex(human, { size: 32 });
  async function clearStreakCache(user: TestUser) {
    const response = await t.app.inject({ method: "GET", url: `/api/streaks/clear-streak-cache?userAddress=${user.address}`, headers: bearer(user.token) });
    expect(response.statusCode).toBe(200);
  }

  it("a human allow-listed through wallet A is eligible on wallet B and accepts an invite there, once", async () => {
    const human = newHuman();
    const [a, b, c] = [await newUser(t.app), await newUser(t.app), await newUser(t.app)];
    for (const wallet of [a, b, c]) indexer.mint(wallet.account.address, human, now() - 3 * DAY);
    expect((await eligibility(b)).json()).toMatchObject({ eligible: false, reason: "ALREADY_CLAIMED" });

    await allowList(a, "support case");
    expect((await eligibility(b)).json()).toEqual({ eligible: true, reason: "ALLOW_LISTED", referralApplied: false, referrerUsername: null });
    const accepted = await acceptCode(t.app, b, await referralCodeOf(t.app, await verifiedUser()));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ referral: { status: "payable" } });
    expect((await oroEarned(t.app, b)).rewardForBeingReferee).not.toBeNull();

    // Still one referral per human: the same human on a third wallet (or on A) is refused.
    expect((await eligibility(c)).json()).toMatchObject({ eligible: false, reason: "ALREADY_REFERRED" });
    const again = await acceptCode(t.app, c, await referralCodeOf(t.app, await verifiedUser()));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: "REFERRAL_ALREADY_EXISTS" });
    expect((await acceptCode(t.app, a, await referralCodeOf(t.app, await verifiedUser()))).statusCode).toBe(409);
  });

  it("a second human who mints to an allow-listed wallet does not get the exemption", async () => {
    const [first, second] = [newHuman(), newHuman()];
    const [a, secondsOwn, firstsOther] = [await newUser(t.app), await newUser(t.app), await newUser(t.app)];
    indexer.mint(secondsOwn.account.address, second, now() - 4 * DAY);
    indexer.mint(firstsOther.account.address, first, now() - 4 * DAY);
    indexer.mint(a.account.address, first, now() - 3 * DAY);
    await allowList(a);
    expect(await allowListEntries(t.db.database.prisma)).toContainEqual({ human: humanHex(first), wallet: a.address, note: null });

    // Later the second human mints to A: they are not allow-listed, on their own wallet or anywhere. A is
    // still its first minter's (the first human's) wallet, and the entry still theirs.
    indexer.mint(a.account.address, second, now() - DAY);
    expect((await eligibility(secondsOwn)).json()).toMatchObject({ eligible: false, reason: "ALREADY_CLAIMED" });
    const refused = await acceptCode(t.app, secondsOwn, await referralCodeOf(t.app, await verifiedUser()));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: "NOT_ELIGIBLE" });
    expect(await allowListEntries(t.db.database.prisma)).not.toContainEqual(expect.objectContaining({ human: humanHex(second) }));
    expect((await eligibility(a)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });
    // The first human keeps it, on any wallet of theirs.
    expect((await eligibility(firstsOther)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });
  });

  it("an address-only entry becomes the first human's the API finds behind the wallet, and theirs only", async () => {
    const [first, second] = [newHuman(), newHuman()];
    const [a, firstsOld, secondsOld] = [await newUser(t.app), await newUser(t.app), await newUser(t.app)];
    indexer.mint(firstsOld.account.address, first, now() - 5 * DAY);
    indexer.mint(secondsOld.account.address, second, now() - 5 * DAY);
    await allowList(a, "promised before their first claim");
    expect(await allowListEntries(t.db.database.prisma)).toContainEqual({ human: null, wallet: a.address, note: "promised before their first claim" });
    // Nobody is known behind A yet: the entry lets the wallet through, as before, and nobody else.
    expect((await eligibility(a)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });
    expect((await eligibility(firstsOld)).json()).toMatchObject({ eligible: false, reason: "ALREADY_CLAIMED" });

    indexer.mint(a.account.address, first, now() - 4 * DAY);
    await clearStreakCache(a);
    // The API learns A's human: the entry is that human's now, on every wallet of theirs.
    expect((await eligibility(a)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });
    expect(await allowListEntries(t.db.database.prisma)).toContainEqual({ human: humanHex(first), wallet: a.address, note: "promised before their first claim" });
    expect((await eligibility(firstsOld)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });

    // A second human minting to A later gets nothing from it, on their own wallet; A stays the first human's.
    indexer.mint(a.account.address, second, now() - DAY);
    await clearStreakCache(a);
    const code = await referralCodeOf(t.app, await verifiedUser());
    expect((await eligibility(secondsOld)).json()).toMatchObject({ eligible: false, reason: "ALREADY_CLAIMED" });
    const refused = await acceptCode(t.app, secondsOld, code);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: "NOT_ELIGIBLE" });
    expect((await eligibility(a)).json()).toMatchObject({ eligible: true, reason: "ALLOW_LISTED" });
    const accepted = await acceptCode(t.app, firstsOld, code);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ referral: { status: "payable" } });
    // One referral per human: the first human now holds one, so A (theirs) is refused too.
    expect((await acceptCode(t.app, a, code)).json()).toMatchObject({ error: "REFERRAL_ALREADY_EXISTS" });
  });

  it("an address-only entry binds at the referee's first mint when the invite came before it", async () => {
    const [human, later] = [newHuman(), newHuman()];
    const [a, old, laterOwn] = [await newUser(t.app), await newUser(t.app), await newUser(t.app)];
    indexer.mint(old.account.address, human, now() - 5 * DAY);
    indexer.mint(laterOwn.account.address, later, now() - 5 * DAY);
    await allowList(a);
    expect((await acceptCode(t.app, a, await referralCodeOf(t.app, await verifiedUser()))).statusCode).toBe(200);
    expect(await referralOf(a)).toMatchObject({ status: "pending" });

    // A human who had claimed before the acceptance mints to A: the entry is theirs, so the referral pays.
    indexer.mint(a.account.address, human);
    expect((await oroEarned(t.app, a)).rewardForBeingReferee).not.toBeNull();
    expect(await referralOf(a)).toMatchObject({ status: "payable" });
    expect(await allowListEntries(t.db.database.prisma)).toContainEqual({ human: humanHex(human), wallet: a.address, note: null });
    // And nobody else's: another human who minted to A afterwards is refused on their own wallet.
    indexer.mint(a.account.address, later, now() + 60);
    expect((await eligibility(laterOwn)).json()).toMatchObject({ eligible: false, reason: "ALREADY_CLAIMED" });
  });

  it("while the indexer is down, an address-only entry still lets its wallet through, and nothing else is guessed", async () => {
    const [a, unknown] = [await newUser(t.app), await newUser(t.app)];
    await allowList(a);
    indexer.down = true;
    expect((await eligibility(a)).json()).toEqual({ eligible: true, reason: "ALLOW_LISTED", referralApplied: false, referrerUsername: null });
    expect((await eligibility(unknown)).statusCode).toBe(503);
    const code = await referralCodeOf(t.app, a);
    expect((await acceptCode(t.app, unknown, code)).json()).toMatchObject({ error: "ELIGIBILITY_UNAVAILABLE" });
  });
});

describe("deciding a referral twice at once (two processes, or a request and the worker)", () => {
  it("rejects it once: the second decision finds it no longer pending", async () => {
    const human = newHuman();
    const referrer = await newUser(t.app);
    indexer.mint(referrer.account.address, human, now() - DAY);
    const referee = await newUser(t.app);
    await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer));
    // The referrer's own human mints to the invited wallet: a self-referral, decided by two callers at once.
    indexer.mint(referee.account.address, human, now() + DAY);
    const { id } = await referralOf(referee);
    const outcomes = await Promise.all([t.app.services.referrals.activate(id), t.app.services.referrals.activate(id)]);
    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(["rejected", "unchanged"]);
    expect(await referralOf(referee)).toMatchObject({ status: "rejected", rejectionReason: "SELF_REFERRAL_SAME_HUMAN" });
  });
});

describe("the database holds the per-human rules", () => {
  async function rowsFor() {
    const prisma = t.db.database.prisma;
    const referrerUser = await newUser(t.app);
    const code = await prisma.referralCode.findUniqueOrThrow({ where: { code: await referralCodeOf(t.app, referrerUser) } });
    const referee = await prisma.user.findUniqueOrThrow({ where: { address: (await newUser(t.app)).address } });
    return { referrer: { id: code.userId }, code, referee };
  }

  it("refuses a payable referral without two different humans, and a second referral of one human", async () => {
    const prisma = t.db.database.prisma;
    const { referrer, code, referee } = await rowsFor();
    const base = { referrerId: referrer.id, refereeId: referee.id, referralCodeId: code.id, status: "payable" as const };
    await expect(prisma.referral.create({ data: { ...base, refereeNullifierHash: "0xaa", referrerNullifierHash: "0xaa" } })).rejects.toThrow();
    await expect(prisma.referral.create({ data: { ...base, refereeNullifierHash: "0xaa" } })).rejects.toThrow();
    await prisma.referral.create({ data: { ...base, status: "pending", refereeNullifierHash: "0xbb" } });
    const other = await rowsFor();
    await expect(
      prisma.referral.create({ data: { referrerId: other.referrer.id, refereeId: other.referee.id, referralCodeId: other.code.id, refereeNullifierHash: "0xbb" } }),
    ).rejects.toThrow();
  });
});

describe("GET /api/referrals/eligibility", () => {
  it("NEVER_CLAIMED, ALREADY_CLAIMED, ALLOW_LISTED for the wallet's human", async () => {
    const fresh = await newUser(t.app);
    expect((await eligibility(fresh)).json()).toEqual({ eligible: true, reason: "NEVER_CLAIMED", referralApplied: false, referrerUsername: null });
    const claimed = await newUser(t.app);
    indexer.mint(claimed.account.address, newHuman());
    expect((await eligibility(claimed)).json()).toEqual({ eligible: false, reason: "ALREADY_CLAIMED", referralApplied: false, referrerUsername: null });
    const listed = await newUser(t.app);
    indexer.mint(listed.account.address, newHuman());
    await allowListWallet(t.db.database.prisma, indexer, listed.address);
    expect((await eligibility(listed)).json()).toEqual({ eligible: true, reason: "ALLOW_LISTED", referralApplied: false, referrerUsername: null });
  });

  it("ALREADY_REFERRED with the referrer's name once an invite is accepted", async () => {
    const referee = await newUser(t.app);
    await acceptCode(t.app, referee, await referralCodeOf(t.app, await verifiedUser("nadia")));
    expect((await eligibility(referee)).json()).toEqual({ eligible: false, reason: "ALREADY_REFERRED", referralApplied: true, referrerUsername: "nadia" });
  });

  it("answers from the cache while the indexer is down, and 503 with the error shape when nothing is cached", async () => {
    const claimed = await newUser(t.app);
    indexer.mint(claimed.account.address, newHuman());
    expect((await eligibility(claimed)).json()).toMatchObject({ reason: "ALREADY_CLAIMED" });
    indexer.down = true;
    expect((await eligibility(claimed)).json()).toMatchObject({ reason: "ALREADY_CLAIMED" });
    const unknown = await newUser(t.app);
    const response = await eligibility(unknown);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: "ELIGIBILITY_UNAVAILABLE", message: expect.any(String) as string });
  });

  it("needs a session for the same address", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    const url = `/api/referrals/eligibility?userAddress=${user.address}`;
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url, headers: bearer(other.token) })).statusCode).toBe(403);
  });
});
