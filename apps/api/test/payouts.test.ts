import { getAddress, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { chainActions, devAccount, startLocalChain, type LocalChain } from "./helpers/chain.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { eventually } from "./helpers/indexer.js";
import { acceptCode, aMinuteAfterAcceptance, newUser, oroEarned, referralCodeOf, type TestUser } from "./helpers/referrals.js";

// The payout worker and the background loops against a local chain (the indexer is the in-memory one:
// these tests are about the worker's bookkeeping; story.test.ts runs the real indexer).
const PAYOUT_WALLET = devAccount(2).address;

let chain: LocalChain;
let actions: ReturnType<typeof chainActions>;
let db: TestDatabase;
const indexer = new FakeIndexer();
const apps: TestApp[] = [];
let human = 5_000n;

async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const app = await createTestApp({
    testDatabase: db,
    indexer,
    env: {
      RPC_URL: chain.rpcUrl,
      REFERRAL_REFERRER_PAYMENT: "auto",
      REFERRAL_REFEREE_PAYMENT: "auto",
      REFERRAL_REFERRER_REWARD: "0.25",
      REFERRAL_REFEREE_REWARD: "0.125",
      // Every wait of a worker ends before its lease: a lease long enough for a loaded machine.
      PAYOUT_LEASE: "60s",
      ...env,
    },
  });
  apps.push(app);
  return app;
}

/** A payable referral with two auto rewards (the fake indexer reports the referee's mint). */
async function payableReferral(app: TestApp): Promise<{ referrer: TestUser; referee: TestUser }> {
  const referrer = await newUser(app.app);
  // A referrer is paid only when a human has minted to their wallet.
  indexer.mint(referrer.account.address, ++human, Math.floor(Date.now() / 1000) - 86_400);
  const referee = await newUser(app.app);
  expect((await acceptCode(app.app, referee, await referralCodeOf(app.app, referrer))).statusCode).toBe(200);
  indexer.mint(referee.account.address, ++human, await aMinuteAfterAcceptance(db.database.prisma, referee));
  await oroEarned(app.app, referee);
  return { referrer, referee };
}

const walletNonce = () => chain.publicClient.getTransactionCount({ address: PAYOUT_WALLET });

beforeAll(async () => {
  chain = await startLocalChain();
  actions = chainActions(chain);
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.app.close().catch(() => undefined);
  await db?.drop();
  await chain?.stop();
});

describe("auto payouts", () => {
  it("retries with backoff while the chain cannot be reached, then pays", async () => {
    // The first retry waits 2 s (the base backoff): room for a loaded machine between the two runs below.
    const offline = await startApp({ RPC_URL: "http://127.0.0.1:9", PAYOUT_MAX_BACKOFF: "10s" });
    const { referee } = await payableReferral(offline);
    const outcomes = await offline.app.services.payouts.runOnce();
    expect(outcomes).toEqual(["retry", "retry"]);
    const rewards = await db.database.prisma.referralReward.findMany({ where: { beneficiary: { address: referee.address } } });
    expect(rewards).toHaveLength(1);
    expect(rewards[0]).toMatchObject({ status: "payout_pending", payoutAttempts: 1, lockedUntil: null });
    expect(rewards[0]?.lastError).toBeTruthy();
    expect(rewards[0]?.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: nothing is tried again at once.
    expect(await offline.app.services.payouts.runOnce()).toEqual([]);

    const online = await startApp();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await online.app.services.payouts.runOnce()).toEqual(["paid", "paid"]);
    expect(await actions.balanceOf(getAddress(referee.address))).toBe(parseUnits("0.125", 18));
    expect((await oroEarned(online.app, referee)).rewardForBeingReferee).toMatchObject({ paymentType: "auto", hasClaimed: true });
  });

  it("two workers at once send one transaction per reward", async () => {
    const [first, second] = [await startApp(), await startApp()];
    const { referrer, referee } = await payableReferral(first);
    const before = await walletNonce();
    const [a, b] = await Promise.all([first.app.services.payouts.runOnce(), second.app.services.payouts.runOnce()]);
    expect([...a, ...b].sort()).toEqual(["paid", "paid"]);
    expect(await walletNonce()).toBe(before + 2);
    expect(await actions.balanceOf(getAddress(referrer.address))).toBe(parseUnits("0.25", 18));
    expect(await actions.balanceOf(getAddress(referee.address))).toBe(parseUnits("0.125", 18));
  });

  it("does not touch a reward another worker holds; takes it over when that worker's lease runs out", async () => {
    const app = await startApp();
    const { referee } = await payableReferral(app);
    const held = await db.database.prisma.referralReward.findFirstOrThrow({ where: { beneficiary: { address: referee.address } } });
    await db.database.prisma.referralReward.update({ where: { id: held.id }, data: { lockedUntil: new Date(Date.now() + 60_000) } });
    expect(await app.app.services.payouts.runOnce()).toEqual(["paid"]); // only the referrer's
    await db.database.prisma.referralReward.update({ where: { id: held.id }, data: { lockedUntil: new Date(Date.now() - 1) } });
    expect(await app.app.services.payouts.runOnce()).toEqual(["paid"]);
    expect(await actions.balanceOf(getAddress(referee.address))).toBe(parseUnits("0.125", 18));
  });

  it("records a voucher someone else already submitted as paid, without sending again", async () => {
    const app = await startApp();
    const { referee } = await payableReferral(app);
    const rewards = await db.database.prisma.referralReward.findMany({
      where: { referral: { referee: { address: referee.address } } },
      include: { beneficiary: true },
    });
    for (const reward of rewards) {
      await actions.claimVoucher(
        { account: getAddress(reward.beneficiary.address), amount: BigInt(reward.amountWei.toFixed()), nonce: BigInt(reward.voucherNonce.toFixed()) },
        reward.voucherSignature as `0x${string}`,
      );
    }
    const before = await walletNonce();
    expect(await app.app.services.payouts.runOnce()).toEqual(["paid", "paid"]);
    expect(await walletNonce()).toBe(before);
    expect(await actions.balanceOf(getAddress(referee.address))).toBe(parseUnits("0.125", 18));
  });

  it("keeps the job no longer than its lease: a worker waiting for a receipt gives up in time, and the next does not send again", async () => {
    const [first, second] = [await startApp({ PAYOUT_LEASE: "6s" }), await startApp({ PAYOUT_LEASE: "6s" })];
    const { referee } = await payableReferral(first);
    const before = await walletNonce();
    const pending = () => chain.publicClient.getTransactionCount({ address: PAYOUT_WALLET, blockTag: "pending" });
    await actions.testClient.setAutomine(false);
    try {
      const started = Date.now();
      // Blocks stop: the first worker sends and then waits for a receipt that does not come.
      expect(await first.app.services.payouts.runOnce(1)).toEqual(["retry"]);
      // Within its lease (before the fix it waited out a 60 s receipt timeout).
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(await pending()).toBe(before + 1);
      // The job is released (after the backoff): the second worker takes it and sees the transaction pending.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      expect(await second.app.services.payouts.runOnce(1)).toEqual(["retry"]);
      expect(await pending()).toBe(before + 1);
    } finally {
      await actions.testClient.setAutomine(true);
      await actions.testClient.mine({ blocks: 1 });
    }
    await eventually(
      async () => {
        await second.app.services.payouts.runOnce();
        return db.database.prisma.referralReward.count({ where: { referral: { referee: { address: referee.address } }, status: "paid" } });
      },
      (paid) => paid === 2,
      30_000,
    );
    expect(await walletNonce()).toBe(before + 2);
  });
});

describe("background work of a running API", () => {
  it("activates a referral when the referee's mint appears and pays the auto rewards, with no request", async () => {
    const app = await startApp({ WORKERS_ENABLED: "true", ACTIVATION_INTERVAL: "100ms", PAYOUT_INTERVAL: "100ms" });
    const referrer = await newUser(app.app);
    indexer.mint(referrer.account.address, ++human, Math.floor(Date.now() / 1000) - 86_400);
    const referee = await newUser(app.app);
    await acceptCode(app.app, referee, await referralCodeOf(app.app, referrer));
    indexer.mint(referee.account.address, ++human, await aMinuteAfterAcceptance(db.database.prisma, referee));
    await eventually(() => actions.balanceOf(getAddress(referrer.address)), (balance) => balance === parseUnits("0.25", 18), 30_000);
    await eventually(() => actions.balanceOf(getAddress(referee.address)), (balance) => balance === parseUnits("0.125", 18), 30_000);
    await app.app.close();
  });
});
