import { addresses, CHAIN_IDS, REFERRAL_CODE_ALPHABET, referralVoucherTypedData } from "@oro/clients";
import { parseUnits, recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { acceptCode, newUser, oroEarned, referralCodeOf, referralNonce, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";
import { allowListWallet } from "./helpers/allow-list.js";

const DEV_VOUCHER_SIGNER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const claimContract = addresses[CHAIN_IDS.development].ReferralClaim;

let t: TestApp;
const indexer = new FakeIndexer();
let humanCounter = 1_000n;
const newHuman = () => ++humanCounter;

beforeAll(async () => {
  t = await createTestApp({ indexer });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  indexer.down = false;
});

/** A user whose wallet a human has minted to: a referrer who can be paid. */
async function verifiedUser(username?: string): Promise<TestUser> {
  const user = await newUser(t.app, username);
  indexer.mint(user.account.address, newHuman(), Math.floor(Date.now() / 1000) - 86_400);
  return user;
}

function inject(method: "GET" | "POST", url: string, user?: TestUser) {
  return t.app.inject({ method, url, ...(user ? { headers: bearer(user.token) } : {}) });
}

describe("GET /api/referral_codes/for_user", () => {
  it("creates one 8-character upper-case code without look-alikes, and returns the same one afterwards", async () => {
    const user = await newUser(t.app);
    const code = await referralCodeOf(t.app, user);
    expect(code).toHaveLength(8);
    for (const char of code) expect(REFERRAL_CODE_ALPHABET).toContain(char);
    expect(code).not.toMatch(/[0O1IL]/);
    expect(await referralCodeOf(t.app, user)).toBe(code);
  });

  it("gives different users different codes, and concurrent first requests one code", async () => {
    const user = await newUser(t.app);
    const url = `/api/referral_codes/for_user?userAddress=${user.address}&app=oro`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => inject("GET", url, user)));
    const codes = new Set(responses.map((r) => r.json<{ referralCode: { referralCode: string } }>().referralCode.referralCode));
    expect(codes.size).toBe(1);
    const other = await referralCodeOf(t.app, await newUser(t.app));
    expect(codes.has(other)).toBe(false);
    expect(await t.db.database.prisma.referralCode.count({ where: { user: { address: user.address } } })).toBe(1);
  });

  it("accepts a checksummed userAddress", async () => {
    const user = await newUser(t.app);
    const response = await inject("GET", `/api/referral_codes/for_user?userAddress=${user.account.address}&app=oro`, user);
    expect(response.statusCode).toBe(200);
  });

  it("needs a session (401) for the same address (403)", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    const url = `/api/referral_codes/for_user?userAddress=${user.address}&app=oro`;
    expect((await inject("GET", url)).json()).toMatchObject({ error: "UNAUTHORIZED" });
    const forbidden = await inject("GET", url, other);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ error: "FORBIDDEN" });
  });

  it("answers 400 naming the field and the rule for a bad address, an unknown app or missing parameters", async () => {
    const user = await newUser(t.app);
    const bad = await inject("GET", "/api/referral_codes/for_user?userAddress=0xnothex&app=oro", user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ issues: { field: string; rule: string }[] }>().issues).toEqual([
      expect.objectContaining({ field: "querystring.userAddress", rule: "invalid_format" }),
    ]);
    const badChecksum = await inject("GET", `/api/referral_codes/for_user?userAddress=0x70997970c51812dc3A010C7d01b50e0d17dc79C8&app=oro`, user);
    expect(badChecksum.statusCode).toBe(400);
    const app = await inject("GET", `/api/referral_codes/for_user?userAddress=${user.address}&app=other`, user);
    expect(app.statusCode).toBe(400);
    expect(app.json<{ issues: { field: string }[] }>().issues[0]?.field).toBe("querystring.app");
    const missing = await inject("GET", "/api/referral_codes/for_user", user);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ issues: { field: string }[] }>().issues.map((i) => i.field).sort()).toEqual([
      "querystring.app",
      "querystring.userAddress",
    ]);
  });
});

describe("GET /api/referrals/nonce", () => {
  it("issues a single-use nonce to the signed-in user only", async () => {
    const user = await newUser(t.app);
    const nonce = await referralNonce(t.app, user);
    expect(nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect((await inject("GET", `/api/referrals/nonce?userAddress=${user.address}`)).statusCode).toBe(401);
    const other = await newUser(t.app);
    expect((await inject("GET", `/api/referrals/nonce?userAddress=${user.address}`, other)).statusCode).toBe(403);
    expect((await inject("GET", `/api/referrals/nonce?userAddress=nope`, user)).statusCode).toBe(400);
  });
});

describe("POST /api/referrals/refer_with_signature", () => {
  it("accepts a code case-insensitively and names the referrer", async () => {
    const referrer = await newUser(t.app, "rita");
    const referee = await newUser(t.app);
    const code = await referralCodeOf(t.app, referrer);
    const response = await acceptCode(t.app, referee, code.toLowerCase());
    expect(response.statusCode).toBe(200);
    const body = response.json<{ referral: { referralCode: string; status: string }; referralUser: { username: string; userId: string } }>();
    expect(body.referral).toMatchObject({ referralCode: code, status: "pending" });
    expect(body.referralUser.username).toBe("rita");
    const earned = await oroEarned(t.app, referee);
    expect(earned.referredByUsername).toBe("rita");
    expect(earned.rewardForBeingReferee).toBeNull();
    // Accepted, waiting for the referee's first mint: the reward is on its way (the share screen reads again).
    expect(earned.refereeRewardPending).toBe(true);
  });

  it("uses the newest outstanding nonce when none is sent", async () => {
    const referee = await newUser(t.app);
    const code = await referralCodeOf(t.app, await newUser(t.app));
    const response = await acceptCode(t.app, referee, code, { sendNonce: false });
    expect(response.statusCode).toBe(200);
  });

  it("REFERRAL_CODE_NOT_FOUND for a code nobody has", async () => {
    const referee = await newUser(t.app);
    const response = await acceptCode(t.app, referee, "ZZZZZZZZ");
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: "REFERRAL_CODE_NOT_FOUND" });
  });

  it("REFERRAL_ALREADY_EXISTS for a second code", async () => {
    const referee = await newUser(t.app);
    expect((await acceptCode(t.app, referee, await referralCodeOf(t.app, await newUser(t.app)))).statusCode).toBe(200);
    const second = await acceptCode(t.app, referee, await referralCodeOf(t.app, await newUser(t.app)));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ error: "REFERRAL_ALREADY_EXISTS" });
  });

  it("NO_SELF_REFERRAL for the user's own code", async () => {
    const user = await newUser(t.app);
    const response = await acceptCode(t.app, user, (await referralCodeOf(t.app, user)).toLowerCase());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "NO_SELF_REFERRAL" });
  });

  it("SIGNATURE_REQUIRED for an empty signature", async () => {
    const referee = await newUser(t.app);
    const code = await referralCodeOf(t.app, await newUser(t.app));
    const empty = await acceptCode(t.app, referee, code, { signature: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: "SIGNATURE_REQUIRED" });
  });

  it("CHAIN_UNAVAILABLE (503) for a signature that could only be a smart wallet's while the chain is down", async () => {
    // Another key's signature is refused only once the chain says the address has no wallet code
    // (see signatures.test.ts); this app's chain URL points nowhere.
    const referee = await newUser(t.app);
    const code = await referralCodeOf(t.app, await newUser(t.app));
    const response = await acceptCode(t.app, referee, code, { signer: privateKeyToAccount(generatePrivateKey()) });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "CHAIN_UNAVAILABLE" });
    expect(await t.db.database.prisma.referral.count({ where: { referee: { address: referee.address } } })).toBe(0);
  });

  it("refuses a replayed signature: its nonce is single-use", async () => {
    const referee = await newUser(t.app);
    const code = await referralCodeOf(t.app, await newUser(t.app));
    const nonce = await referralNonce(t.app, referee);
    expect((await acceptCode(t.app, referee, code, { nonce })).statusCode).toBe(200);
    await t.db.database.prisma.referral.deleteMany({ where: { referee: { address: referee.address } } });
    const replay = await acceptCode(t.app, referee, code, { nonce });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: "SIGNATURE_INVALID" });
  });

  it("NOT_ELIGIBLE once the referee has claimed, unless on the allow-list", async () => {
    const referee = await newUser(t.app);
    indexer.mint(referee.account.address, newHuman());
    const code = await referralCodeOf(t.app, await verifiedUser("ann"));
    const refused = await acceptCode(t.app, referee, code);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: "NOT_ELIGIBLE" });

    await allowListWallet(t.db.database.prisma, indexer, referee.account.address, "early supporter");
    const accepted = await acceptCode(t.app, referee, code);
    expect(accepted.statusCode).toBe(200);
    // The referee has minted already, so the referral is payable at once.
    expect(accepted.json<{ referral: { status: string } }>().referral.status).toBe("payable");
    expect((await oroEarned(t.app, referee)).rewardForBeingReferee).not.toBeNull();
  });

  it("NO_SELF_REFERRAL when the referee is the same human as the referrer", async () => {
    const human = newHuman();
    const referrer = await newUser(t.app);
    indexer.mint(referrer.account.address, human);
    const secondAddress = await newUser(t.app);
    indexer.mint(secondAddress.account.address, human);
    await t.db.database.prisma.referralAllowList.create({ data: { address: secondAddress.address } });
    const response = await acceptCode(t.app, secondAddress, await referralCodeOf(t.app, referrer));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "NO_SELF_REFERRAL" });
  });

  it("ELIGIBILITY_UNAVAILABLE (503) while the indexer is down", async () => {
    const referee = await newUser(t.app);
    const code = await referralCodeOf(t.app, await newUser(t.app));
    indexer.down = true;
    const response = await acceptCode(t.app, referee, code);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "ELIGIBILITY_UNAVAILABLE" });
  });

  it("needs a session for the same address, and valid parameters", async () => {
    const referee = await newUser(t.app);
    const other = await newUser(t.app);
    const base = `/api/referrals/refer_with_signature?userAddress=${referee.address}&referralCode=ABCDEFGH&signature=0x12`;
    expect((await inject("POST", base)).statusCode).toBe(401);
    expect((await inject("POST", base, other)).statusCode).toBe(403);
    const short = await inject("POST", `/api/referrals/refer_with_signature?userAddress=${referee.address}&referralCode=ABC&signature=`, referee);
    expect(short.statusCode).toBe(400);
    expect(short.json<{ issues: { field: string; rule: string }[] }>().issues[0]).toMatchObject({
      field: "querystring.referralCode",
      rule: "too_small",
    });
    const noSignature = await inject("POST", `/api/referrals/refer_with_signature?userAddress=${referee.address}&referralCode=ABCDEFGH`, referee);
    expect(noSignature.statusCode).toBe(400);
    expect(noSignature.json<{ issues: { field: string }[] }>().issues[0]?.field).toBe("querystring.signature");
  });
});

describe("GET /api/referrals/oro-earned", () => {
  it("is empty for a new user", async () => {
    const user = await newUser(t.app);
    expect(await oroEarned(t.app, user)).toEqual({
      totalOroEarnedWei: "0",
      usersReferred: [],
      rewardForBeingReferee: null,
      referredByUsername: null,
      refereeRewardPending: false,
      usersReferredCount: 0,
      nextCursor: null,
    });
  });

  it("pays both sides once the referee's first mint is indexed, with vouchers signed by the claim signer", async () => {
    const referrer = await verifiedUser("rob");
    const referee = await newUser(t.app, "eve");
    expect((await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer))).statusCode).toBe(200);
    expect((await oroEarned(t.app, referrer)).usersReferred).toEqual([]);

    indexer.mint(referee.account.address, newHuman());
    const asReferrer = await oroEarned(t.app, referrer);
    expect(asReferrer.totalOroEarnedWei).toBe(parseUnits("1", 18).toString());
    expect(asReferrer.usersReferred).toHaveLength(1);
    const entry = asReferrer.usersReferred[0];
    expect(entry).toMatchObject({ username: "eve", paymentType: "claimable", paymentAmountWei: parseUnits("1", 18).toString(), hasClaimed: false });
    expect(Date.parse(entry?.updatedAt ?? "")).not.toBeNaN();

    const asReferee = await oroEarned(t.app, referee);
    expect(asReferee.referredByUsername).toBe("rob");
    expect(asReferee.refereeRewardPending).toBe(false);
    expect(asReferee.totalOroEarnedWei).toBe(parseUnits("0.5", 18).toString());
    expect(asReferee.rewardForBeingReferee).toMatchObject({ paymentType: "claimable", paymentAmountWei: parseUnits("0.5", 18).toString(), hasClaimed: false });

    for (const [reward, owner] of [[entry, referrer], [asReferee.rewardForBeingReferee, referee]] as const) {
      const voucher = reward?.claimableSignature;
      expect(voucher?.contractAddress).toBe(claimContract);
      expect(voucher?.message.account.toLowerCase()).toBe(owner.address);
      if (!voucher) throw new Error("no voucher");
      const recovered = await recoverTypedDataAddress({
        ...referralVoucherTypedData(CHAIN_IDS.development, voucher.contractAddress, {
          account: voucher.message.account,
          amount: BigInt(voucher.message.amount),
          nonce: BigInt(voucher.message.nonce),
        }),
        signature: voucher.signature,
      });
      expect(recovered).toBe(DEV_VOUCHER_SIGNER);
    }
    expect(entry?.claimableSignature?.message.nonce).not.toBe(asReferee.rewardForBeingReferee?.claimableSignature?.message.nonce);
  });

  it("reports hasClaimed from the indexer's payouts; the cached answer until forceBustCache=true", async () => {
    const referrer = await verifiedUser();
    const referee = await newUser(t.app);
    await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer));
    indexer.mint(referee.account.address, newHuman());
    const before = await oroEarned(t.app, referee);
    const voucher = before.rewardForBeingReferee?.claimableSignature;
    if (!voucher) throw new Error("no voucher");
    indexer.payout(referee.account.address, BigInt(voucher.message.nonce), BigInt(voucher.message.amount));

    expect((await oroEarned(t.app, referee, false)).rewardForBeingReferee?.hasClaimed).toBe(false);
    expect((await oroEarned(t.app, referee, true)).rewardForBeingReferee?.hasClaimed).toBe(true);
    // Once seen, it stays claimed even when the indexer is down.
    indexer.down = true;
    expect((await oroEarned(t.app, referee, true)).rewardForBeingReferee?.hasClaimed).toBe(true);
    // The referrer's voucher was not claimed.
    indexer.down = false;
    expect((await oroEarned(t.app, referrer, true)).usersReferred[0]?.hasClaimed).toBe(false);
  });

  it("one reward per human: the same human accepting on a second address earns nothing there", async () => {
    const human = newHuman();
    const firstReferrer = await verifiedUser();
    const secondReferrer = await verifiedUser();
    const firstAddress = await newUser(t.app);
    const secondAddress = await newUser(t.app);
    await acceptCode(t.app, firstAddress, await referralCodeOf(t.app, firstReferrer));
    await acceptCode(t.app, secondAddress, await referralCodeOf(t.app, secondReferrer));
    indexer.mint(firstAddress.account.address, human);
    indexer.mint(secondAddress.account.address, human);

    expect((await oroEarned(t.app, firstReferrer)).usersReferred).toHaveLength(1);
    expect((await oroEarned(t.app, secondReferrer)).usersReferred).toHaveLength(0);
    expect((await oroEarned(t.app, secondAddress)).rewardForBeingReferee).toBeNull();
    const rejected = await t.db.database.prisma.referral.findUniqueOrThrow({ where: { refereeId: (await userId(secondAddress)) } });
    expect(rejected).toMatchObject({ status: "rejected", rejectionReason: "HUMAN_ALREADY_REFERRED" });
  });

  it("refuses at activation a referee who turns out to be the referrer's own human", async () => {
    const human = newHuman();
    const referrer = await newUser(t.app);
    indexer.mint(referrer.account.address, human);
    const referee = await newUser(t.app);
    await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer));
    indexer.mint(referee.account.address, human);
    expect((await oroEarned(t.app, referrer)).usersReferred).toHaveLength(0);
    const referral = await t.db.database.prisma.referral.findUniqueOrThrow({ where: { refereeId: await userId(referee) } });
    expect(referral).toMatchObject({ status: "rejected", rejectionReason: "SELF_REFERRAL_SAME_HUMAN" });
    // Refused: nothing is on its way to the referee.
    expect((await oroEarned(t.app, referee)).refereeRewardPending).toBe(false);
  });

  it("still answers while the indexer is down (what the database knows)", async () => {
    const referrer = await newUser(t.app);
    const referee = await newUser(t.app);
    await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer));
    indexer.down = true;
    const earned = await oroEarned(t.app, referee);
    expect(earned.referredByUsername).toBeNull();
    expect(earned.rewardForBeingReferee).toBeNull();
  });

  it("needs a session for the same address and a valid forceBustCache", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    expect((await inject("GET", `/api/referrals/oro-earned?userAddress=${user.address}`)).statusCode).toBe(401);
    expect((await inject("GET", `/api/referrals/oro-earned?userAddress=${user.address}`, other)).statusCode).toBe(403);
    const bad = await inject("GET", `/api/referrals/oro-earned?userAddress=${user.address}&forceBustCache=yes`, user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ issues: { field: string }[] }>().issues[0]?.field).toBe("querystring.forceBustCache");
    expect((await inject("GET", `/api/referrals/oro-earned?userAddress=${user.address}`, user)).statusCode).toBe(200);
  });
});

async function userId(user: TestUser): Promise<string> {
  return (await t.db.database.prisma.user.findUniqueOrThrow({ where: { address: user.address } })).id;
}
