import { devNullifierHash } from "@oro/clients";
import type { ClaimsResponse, ReferralPayoutsResponse } from "@oro/indexer/api-types";
import { getAddress, parseUnits, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { chainActions, devAccount, local, startLocalChain, type LocalChain } from "./helpers/chain.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { eventually, startIndexer, type RunningIndexer } from "./helpers/indexer.js";
import { acceptCode, newUser, oroEarned, referralCodeOf, type TestUser } from "./helpers/referrals.js";

// The whole referral programme against a local chain and the real indexer: nothing here is simulated.
const DEV_VOUCHER_SIGNER = devAccount(1).address;
const PAYOUT_WALLET = devAccount(2).address;

let chain: LocalChain;
let indexer: RunningIndexer;
let actions: ReturnType<typeof chainActions>;
let db: TestDatabase;
let env: Record<string, string>;
const apps: TestApp[] = [];

async function startApp(extra: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const app = await createTestApp({ testDatabase: db, env, ...extra });
  apps.push(app);
  return app;
}

async function indexerGet<T>(path: string): Promise<T> {
  const response = await fetch(`${indexer.url}${path}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  chain = await startLocalChain();
  actions = chainActions(chain);
  indexer = await startIndexer(chain);
  db = await createTestDatabase();
  env = {
    RPC_URL: chain.rpcUrl,
    INDEXER_URL: indexer.url,
    REFERRAL_REFERRER_REWARD: "1",
    REFERRAL_REFERRER_PAYMENT: "claimable",
    REFERRAL_REFEREE_REWARD: "0.5",
    REFERRAL_REFEREE_PAYMENT: "auto",
    // A worker's waits end before its lease: long enough for a loaded machine, short for the takeover below.
    PAYOUT_LEASE: "10s",
  };
}, 300_000);

afterAll(async () => {
  for (const app of apps) await app.app.close().catch(() => undefined);
  await db?.drop();
  await indexer?.stop();
  await chain?.stop();
});

// The story's tests run in order, each going on from where the last left the chain, the indexer and the API.
let t: TestApp;
let referrer: TestUser;
let referee: TestUser;

describe("the referral story on a local chain with the real indexer: a code, its rewards and their payment", () => {
  it("issues a code that a new user accepts (eligible: the indexer has no claim of theirs)", async () => {
    t = await startApp();
    referrer = await newUser(t.app, "rosa");
    referee = await newUser(t.app, "ezra");
    // A referrer is paid only when a human has minted to their wallet.
    await actions.mint(devNullifierHash("story-referrer"), getAddress(referrer.address));
    const code = await referralCodeOf(t.app, referrer);
    const accepted = await acceptCode(t.app, referee, code);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ referral: { status: "pending" }, referralUser: { username: "rosa" } });
    expect((await oroEarned(t.app, referrer)).usersReferred).toEqual([]);
  });

  it("creates both rewards once the referee's first mint is indexed; the voucher verifies with previewClaim", async () => {
    await actions.mint(devNullifierHash("story-referee"), getAddress(referee.address));
    await eventually(
      () => indexerGet<ClaimsResponse>(`/streaks/${referee.address}/claims?limit=1`),
      (body) => body.claims.length === 1,
    );
    const earned = await oroEarned(t.app, referrer);
    expect(earned.totalOroEarnedWei).toBe(parseUnits("1", 18).toString());
    const entry = earned.usersReferred[0];
    expect(entry).toMatchObject({ username: "ezra", paymentType: "claimable", hasClaimed: false });
    const voucher = entry?.claimableSignature;
    if (!voucher) throw new Error("no claimable voucher");
    expect(voucher.contractAddress).toBe(local.ReferralClaim);
    const message = { account: voucher.message.account, amount: BigInt(voucher.message.amount), nonce: BigInt(voucher.message.nonce) };
    const [nonceId, wasClaimed, , recovered] = await actions.previewClaim(message, voucher.signature);
    expect(recovered).toBe(DEV_VOUCHER_SIGNER);
    expect(wasClaimed).toBe(false);
    expect(nonceId).toBe(message.nonce >> 8n);
    expect(message.account).toBe(getAddress(referrer.address));

    const asReferee = await oroEarned(t.app, referee);
    expect(asReferee.rewardForBeingReferee).toMatchObject({ paymentType: "auto", paymentAmountWei: parseUnits("0.5", 18).toString(), hasClaimed: false });
    expect(asReferee.rewardForBeingReferee?.claimableSignature).toBeUndefined();
    expect(asReferee.referredByUsername).toBe("rosa");
  });

  it("claims the voucher on chain; hasClaimed turns true from the indexer's payouts", async () => {
    const voucher = (await oroEarned(t.app, referrer)).usersReferred[0]?.claimableSignature;
    if (!voucher) throw new Error("no claimable voucher");
    const before = await actions.balanceOf(getAddress(referrer.address));
    await actions.claimVoucher(
      { account: voucher.message.account, amount: BigInt(voucher.message.amount), nonce: BigInt(voucher.message.nonce) },
      voucher.signature,
    );
    expect((await actions.balanceOf(getAddress(referrer.address))) - before).toBe(parseUnits("1", 18));
    await eventually(
      () => indexerGet<ReferralPayoutsResponse>(`/referral-payouts/${referrer.address}`),
      (body) => body.payouts.some((payout) => payout.nonce === voucher.message.nonce),
    );
    const earned = await oroEarned(t.app, referrer);
    expect(earned.usersReferred[0]?.hasClaimed).toBe(true);
  });

  it("pays the auto reward exactly once although the worker was killed right after sending it", async () => {
    const refereeAddress = getAddress(referee.address);
    const balanceBefore = await actions.balanceOf(refereeAddress);
    const walletNonceBefore = await chain.publicClient.getTransactionCount({ address: PAYOUT_WALLET });

    // First worker: it sends the payout, then dies before it can record anything.
    let sent: Hex | undefined;
    const crashing = await startApp({
      afterPayoutSubmit: (_reward, txHash) => {
        sent = txHash;
        return new Promise<void>(() => undefined);
      },
    });
    void crashing.app.services.payouts.runOnce();
    await eventually(() => Promise.resolve(sent), (hash) => hash !== undefined, 30_000);
    const stored = await db.database.prisma.referralReward.findFirstOrThrow({ where: { paymentType: "auto" } });
    expect(stored).toMatchObject({ status: "payout_pending", payoutTxHash: null });

    // A fresh worker (new process state, same database and chain) takes over once the lease runs out.
    const restarted = await startApp();
    await new Promise((resolve) => setTimeout(resolve, 10_100));
    expect(await restarted.app.services.payouts.runOnce()).toEqual(["paid"]);
    expect(await restarted.app.services.payouts.runOnce()).toEqual([]);

    expect((await actions.balanceOf(refereeAddress)) - balanceBefore).toBe(parseUnits("0.5", 18));
    expect(await chain.publicClient.getTransactionCount({ address: PAYOUT_WALLET })).toBe(walletNonceBefore + 1);
    const paid = await db.database.prisma.referralReward.findFirstOrThrow({ where: { paymentType: "auto" } });
    expect(paid.status).toBe("paid");
    expect((await oroEarned(restarted.app, referee)).rewardForBeingReferee?.hasClaimed).toBe(true);
    const payouts = await eventually(
      () => indexerGet<ReferralPayoutsResponse>(`/referral-payouts/${referee.address}`),
      (body) => body.payouts.length > 0,
    );
    expect(payouts.payouts).toHaveLength(1);
    expect(payouts.payouts[0]?.transactionHash).toBe(sent);
  });
});

describe("the referral story on a local chain with the real indexer: who is eligible, the indexer's followers, farming", () => {
  it("refuses a user who has already claimed (the indexer's claims lookup)", async () => {
    const late = await newUser(t.app);
    await actions.mint(devNullifierHash("story-late"), getAddress(late.address));
    await eventually(
      () => indexerGet<ClaimsResponse>(`/streaks/${late.address}/claims?limit=1`),
      (body) => body.claims.length === 1,
    );
    const response = await acceptCode(t.app, late, await referralCodeOf(t.app, referrer));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: "NOT_ELIGIBLE" });
  });

  // Before the chain is moved days ahead below: the sign-ins of its new users are checked against the chain's clock.
  it("the followers of the indexer's mints and payouts decide a referral at its mint and record its voucher paid, nobody reading", async () => {
    const { prisma } = db.database;
    const followed = t.app.services.referrals;
    const inviter = await newUser(t.app, "fatima");
    const invitee = await newUser(t.app, "gus");
    await actions.mint(devNullifierHash("story-fatima"), getAddress(inviter.address));
    expect((await acceptCode(t.app, invitee, await referralCodeOf(t.app, inviter))).statusCode).toBe(200);
    const referral = await prisma.referral.findFirstOrThrow({ where: { referee: { address: invitee.address } } });
    await followed.followMints(60_000);
    expect((await prisma.referral.findUniqueOrThrow({ where: { id: referral.id } })).status).toBe("pending");
    await actions.mint(devNullifierHash("story-gus"), getAddress(invitee.address));
    // Each pass asks the real indexer for the mints after the last one it applied, until this one is listed.
    await eventually(
      async () => (await followed.followMints(60_000), await prisma.referral.findUniqueOrThrow({ where: { id: referral.id } })),
      (row) => row.status === "payable",
    );
    const reward = await prisma.referralReward.findFirstOrThrow({ where: { referralId: referral.id, side: "referrer" } });
    await actions.claimVoucher(
      { account: getAddress(inviter.address), amount: BigInt(reward.amountWei.toFixed()), nonce: BigInt(reward.voucherNonce.toFixed()) },
      reward.voucherSignature as Hex,
    );
    await eventually(
      async () => (await followed.followPayouts(60_000), await prisma.referralReward.findUniqueOrThrow({ where: { id: reward.id } })),
      (row) => row.claimedAt !== null,
    );
    const cursors = await prisma.chainFollower.findMany({ orderBy: { name: "asc" } });
    expect(cursors.map((row) => [row.name, row.cursor?.length, row.lockedUntil])).toEqual([
      ["mints", 75, null],
      ["payouts", 75, null],
    ]);
    // The rest of the story runs without the followers (as a replica whose workers are off): reads ask the indexer.
    await prisma.chainFollower.deleteMany({});
  });

  async function indexedClaims(address: string, count: number) {
    await eventually(() => indexerGet<ClaimsResponse>(`/streaks/${address}/claims?limit=10`), (body) => body.claims.length === count);
  }

  it("a human farming with a second wallet earns nothing: nobody has minted to the referrer's wallet", async () => {
    const w1 = await newUser(t.app);
    const w2 = await newUser(t.app);
    expect((await acceptCode(t.app, w2, await referralCodeOf(t.app, w1))).statusCode).toBe(200);
    await actions.mint(devNullifierHash("story-farmer"), getAddress(w2.address));
    await indexedClaims(w2.address, 1);
    expect((await oroEarned(t.app, w1)).usersReferred).toEqual([]);
    expect((await oroEarned(t.app, w2)).rewardForBeingReferee).toBeNull();
  });

  it("a human who has claimed before earns nothing as the referee of a fresh wallet", async () => {
    const fresh = await newUser(t.app);
    expect((await acceptCode(t.app, fresh, await referralCodeOf(t.app, referrer))).statusCode).toBe(200);
    // The referee's human (who minted to `referee` above) mints again, a few days later, to the fresh wallet.
    await actions.testClient.increaseTime({ seconds: 3 * 86_400 });
    await actions.mint(devNullifierHash("story-referee"), getAddress(fresh.address));
    await indexedClaims(fresh.address, 1);
    expect((await oroEarned(t.app, referrer)).usersReferred).toHaveLength(1);
    expect((await oroEarned(t.app, fresh)).rewardForBeingReferee).toBeNull();
    const referral = await db.database.prisma.referral.findFirstOrThrow({ where: { referee: { address: fresh.address } } });
    expect(referral).toMatchObject({ status: "rejected", rejectionReason: "REFEREE_MINTED_BEFORE_ACCEPTANCE" });
  });

});
