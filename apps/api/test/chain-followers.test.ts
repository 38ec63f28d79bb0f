import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPLY_ATTEMPTS, createChainFollower, type FollowedEvent, type UnreadableEvent } from "../src/lib/chain-follower.js";
import { IndexerUnavailableError } from "../src/services/indexer/client.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { acceptCode, newUser, oroEarned, referralCodeOf, type TestUser } from "./helpers/referrals.js";

// The followers of the indexer's mints and payouts in chain order: what they change is known without a sweep coming
// round or a read asking the indexer.
let t: TestApp;
const indexer = new FakeIndexer();
let humans = 0;
const newHuman = () => BigInt(5_000_000 + ++humans);
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  t = await createTestApp({ indexer });
});
afterAll(async () => {
  await t.close();
});

const referrals = () => t.app.services.referrals;
const prisma = () => t.db.database.prisma;

/** A referrer whose wallet a human minted to, and a referee who accepted their code (pending: not minted yet). */
async function pendingReferral(options: { referrerMinted?: boolean } = {}) {
  const referrer = await newUser(t.app, `referrer${humans}`);
  if (options.referrerMinted !== false) indexer.mint(referrer.account.address, newHuman(), now() - 86_400);
  const referee = await newUser(t.app, `referee${humans}`);
  expect((await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer))).statusCode).toBe(200);
  const refereeRow = await prisma().user.findUniqueOrThrow({ where: { address: referee.address } });
  const referral = await prisma().referral.findUniqueOrThrow({ where: { refereeId: refereeRow.id } });
  expect(referral.status).toBe("pending");
  return { referrer, referee, referralId: referral.id };
}

const statusOf = async (id: string) => (await prisma().referral.findUniqueOrThrow({ where: { id } })).status;

/** The mints and payouts so far followed (a pass of each, as the workers run them). */
async function follow() {
  await referrals().followMints(60_000);
  await referrals().followPayouts(60_000);
}

describe("the mints followed in chain order", () => {
  it("decide a pending referral when the referee's first mint is indexed, without the sweep or a read", async () => {
    await follow();
    const { referee, referralId } = await pendingReferral();
    indexer.mint(referee.account.address, newHuman());
    expect(await statusOf(referralId)).toBe("pending");
    const pass = await referrals().followMints(60_000);
    expect(pass).toMatchObject({ held: true, caughtUp: true });
    expect(await statusOf(referralId)).toBe("payable");
    expect(await prisma().referralReward.count({ where: { referralId } })).toBe(2);
  });

  it("decide a referral waiting for its referrer when a human mints to the referrer's wallet", async () => {
    const { referrer, referee, referralId } = await pendingReferral({ referrerMinted: false });
    indexer.mint(referee.account.address, newHuman());
    await referrals().followMints(60_000);
    // The referee's human is known and held; nobody is behind the referrer yet.
    const waiting = await prisma().referral.findUniqueOrThrow({ where: { id: referralId } });
    expect(waiting).toMatchObject({ status: "pending" });
    expect(waiting.refereeNullifierHash).not.toBeNull();
    indexer.mint(referrer.account.address, newHuman());
    await referrals().followMints(60_000);
    expect(await statusOf(referralId)).toBe("payable");
  });

  it("leave the cursor where it was while the indexer cannot tell, and decide on the next pass", async () => {
    await follow();
    const { referee, referralId } = await pendingReferral();
    indexer.mint(referee.account.address, newHuman());
    // The list answers, but the activation's own questions do not: the page is applied again next time.
    const humansOf = indexer.humansOf.bind(indexer);
    indexer.humansOf = () => Promise.reject(new IndexerUnavailableError("the indexer is down"));
    try {
      expect(await referrals().followMints(60_000)).toMatchObject({ held: true, caughtUp: false });
      expect(await statusOf(referralId)).toBe("pending");
    } finally {
      indexer.humansOf = humansOf;
    }
    await referrals().followMints(60_000);
    expect(await statusOf(referralId)).toBe("payable");
  });

  it("start, the first time, from an hour ago: older mints are the sweep's", async () => {
    const freshIndexer = new FakeIndexer();
    const fresh = await createTestApp({ indexer: freshIndexer });
    const own = fresh.app.services.referrals;
    const { prisma: freshPrisma } = fresh.db.database;
    try {
      const referrer = await newUser(fresh.app, "early");
      freshIndexer.mint(referrer.account.address, newHuman(), now() - 86_400);
      const referees = [await newUser(fresh.app, "old"), await newUser(fresh.app, "new")];
      const code = await referralCodeOf(fresh.app, referrer);
      for (const referee of referees) expect((await acceptCode(fresh.app, referee, code)).statusCode).toBe(200);
      const [old, young] = referees as [TestUser, TestUser];
      freshIndexer.mint(old.account.address, newHuman(), now() - 2 * 3_600);
      freshIndexer.mint(young.account.address, newHuman(), now() + 5);
      expect(await own.followMints(60_000)).toMatchObject({ held: true, events: 1, caughtUp: true });
      const statusOfFresh = async (user: TestUser) =>
        (await freshPrisma.referral.findFirstOrThrow({ where: { referee: { address: user.address } } })).status;
      expect(await statusOfFresh(old)).toBe("pending");
      expect(await statusOfFresh(young)).toBe("payable");
    } finally {
      await fresh.close();
    }
  });

  it("are followed by one replica at a time: another finds the follower held and does nothing", async () => {
    const other = await createTestApp({ indexer, testDatabase: t.db });
    try {
      await prisma().chainFollower.update({ where: { name: "mints" }, data: { lockedUntil: new Date(Date.now() + 60_000) } });
      const { referee, referralId } = await pendingReferral();
      indexer.mint(referee.account.address, newHuman());
      expect(await other.app.services.referrals.followMints(60_000)).toEqual({ held: false, events: 0, skipped: 0, caughtUp: false });
      expect(await statusOf(referralId)).toBe("pending");
      // Once the lease has run out (its holder gone), the other replica goes on from the shared cursor.
      await prisma().chainFollower.update({ where: { name: "mints" }, data: { lockedUntil: new Date(Date.now() - 1) } });
      expect(await other.app.services.referrals.followMints(60_000)).toMatchObject({ held: true, events: 1, caughtUp: true });
      expect(await statusOf(referralId)).toBe("payable");
    } finally {
      await other.close();
    }
  });
});

describe("the payouts followed in chain order", () => {
  /** A referrer with one payable invite: their claimable voucher as the earnings answer it. */
  async function payableInvite(): Promise<{ referrer: TestUser; nonce: bigint }> {
    const { referrer, referee } = await pendingReferral();
    indexer.mint(referee.account.address, newHuman());
    await follow();
    const earned = await oroEarned(t.app, referrer);
    const voucher = earned.usersReferred[0]?.claimableSignature;
    if (!voucher) throw new Error("no voucher");
    return { referrer, nonce: BigInt(voucher.message.nonce) };
  }

  it("record a voucher paid, and a read then asks the indexer nothing about its page", async () => {
    const { referrer, nonce } = await payableInvite();
    // The follower is current: an open voucher is open, without asking.
    const asked = indexer.calls;
    expect((await oroEarned(t.app, referrer)).usersReferred[0]).toMatchObject({ hasClaimed: false });
    expect(indexer.calls).toBe(asked);
    indexer.payout(referrer.account.address, nonce, 1n);
    await referrals().followPayouts(60_000);
    const reward = await prisma().referralReward.findFirstOrThrow({ where: { voucherNonce: nonce.toString() } });
    expect(reward.claimedAt).not.toBeNull();
    const before = indexer.calls;
    const earned = await oroEarned(t.app, referrer);
    expect(earned.usersReferred[0]).toMatchObject({ hasClaimed: true });
    expect(indexer.calls).toBe(before);
  });

  it("let a read rely on them only while the follower is current: otherwise it asks the indexer about its page", async () => {
    const { referrer, nonce } = await payableInvite();
    await prisma().chainFollower.update({ where: { name: "payouts" }, data: { followedAt: new Date(Date.now() - 60_000) } });
    indexer.payout(referrer.account.address, nonce, 1n);
    const before = indexer.calls;
    const earned = await oroEarned(t.app, referrer);
    expect(earned.usersReferred[0]).toMatchObject({ hasClaimed: true });
    expect(indexer.calls).toBeGreaterThan(before);
  });

  it("drop the beneficiary's cached first page (the other processes': earnings-replicas.test.ts)", async () => {
    const { referrer, nonce } = await payableInvite();
    await referrals().followPayouts(60_000);
    expect((await oroEarned(t.app, referrer, false)).usersReferred[0]).toMatchObject({ hasClaimed: false });
    indexer.payout(referrer.account.address, nonce, 1n);
    await referrals().followPayouts(60_000);
    expect((await oroEarned(t.app, referrer, false)).usersReferred[0]).toMatchObject({ hasClaimed: true });
  });

  it("read again the last two minutes of chain time each pass: a payout a reorganisation put before the cursor is recorded", async () => {
    const { referrer, nonce } = await payableInvite();
    indexer.payout(referrer.account.address, 999_999_999n, 1n, now() + 30);
    await referrals().followPayouts(60_000);
    // The replacement block's payout sorts 90 s before where the follower got to.
    indexer.payout(referrer.account.address, nonce, 1n, now() - 60);
    await referrals().followPayouts(60_000);
    const reward = await prisma().referralReward.findFirstOrThrow({ where: { voucherNonce: nonce.toString() } });
    expect(reward.claimedAt).not.toBeNull();
  });
});

describe("a chain follower", () => {
  it("keeps its cursor and stops being current while the indexer does not answer, and goes on once it does", async () => {
    await follow();
    const before = await prisma().chainFollower.findUniqueOrThrow({ where: { name: "payouts" } });
    indexer.down = true;
    try {
      expect(await referrals().followPayouts(60_000)).toEqual({ held: true, events: 0, skipped: 0, caughtUp: false });
    } finally {
      indexer.down = false;
    }
    const during = await prisma().chainFollower.findUniqueOrThrow({ where: { name: "payouts" } });
    expect(during).toMatchObject({ cursor: before.cursor, followedAt: before.followedAt, lockedUntil: null });
    expect(await referrals().followPayouts(60_000)).toMatchObject({ held: true, caughtUp: true });
    const after = await prisma().chainFollower.findUniqueOrThrow({ where: { name: "payouts" } });
    expect(after.followedAt?.getTime()).toBeGreaterThan(before.followedAt?.getTime() ?? Infinity);
  });

  it("goes through a backlog page by page, resumes where a pass stopped, and applies each event once in order", async () => {
    const events = Array.from({ length: 7 }, (_, i) => ({ cursor: `${String(1_800_000_000 + i).padStart(10, "0")}${"0".repeat(65)}` }));
    const applied: string[] = [];
    let fetches = 0;
    const follower = createChainFollower<FollowedEvent>({
      database: t.db.database,
      name: "test-backlog",
      fetch: (after, limit) => {
        fetches++;
        return Promise.resolve(events.filter((event) => after === null || event.cursor > after).slice(0, limit));
      },
      apply: (page) => {
        applied.push(...page.map((event) => event.cursor));
        return Promise.resolve();
      },
      mayRetry: () => false,
      pageSize: 2,
      leaseMs: 60_000,
      rewindSeconds: 0,
      startAt: () => null,
      log: t.app.log,
    });
    // A budget of nothing: one page, then the pass ends where it got to.
    expect(await follower.pass(0)).toMatchObject({ held: true, events: 2, caughtUp: false });
    expect(await follower.pass(60_000)).toMatchObject({ held: true, events: 5, caughtUp: true });
    expect(applied).toEqual(events.map((event) => event.cursor));
    expect(fetches).toBe(4);
    const row = await prisma().chainFollower.findUniqueOrThrow({ where: { name: "test-backlog" } });
    expect(row).toMatchObject({ cursor: events.at(-1)?.cursor, lockedUntil: null });
    expect(row.followedAt).not.toBeNull();
  });

  /** A follower over a fixed list, applying with `apply`, recording what it was given. */
  function followerOver(name: string, items: (FollowedEvent | UnreadableEvent)[], apply: (page: FollowedEvent[]) => Promise<void>) {
    const warned: unknown[] = [];
    const log = Object.assign(Object.create(t.app.log) as typeof t.app.log, {
      warn: (...args: unknown[]) => void warned.push(args[0]),
      error: (...args: unknown[]) => void warned.push(args[0]),
    });
    const follower = createChainFollower<FollowedEvent>({
      database: t.db.database,
      name,
      fetch: (after, limit) => Promise.resolve(items.filter((item) => after === null || item.cursor === null || item.cursor > after).slice(0, limit)),
      apply,
      mayRetry: (error) => error instanceof IndexerUnavailableError,
      pageSize: 10,
      leaseMs: 60_000,
      rewindSeconds: 0,
      startAt: () => null,
      log,
    });
    return { follower, warned, cursor: async () => (await prisma().chainFollower.findUniqueOrThrow({ where: { name } })).cursor };
  }
  const at = (i: number) => `${String(1_800_000_100 + i).padStart(10, "0")}${"0".repeat(65)}`;

  it("skips an item of the indexer's list it cannot read, with a warning, and goes on past it", async () => {
    const applied: string[] = [];
    const { follower, warned, cursor } = followerOver(
      "test-unreadable",
      [{ cursor: at(1) }, { cursor: at(2), unreadable: "receiver: Invalid string" }, { cursor: at(3) }],
      (page) => {
        applied.push(...page.map((event) => event.cursor));
        return Promise.resolve();
      },
    );
    expect(await follower.pass(60_000)).toMatchObject({ held: true, events: 2, skipped: 1, caughtUp: true });
    expect(applied).toEqual([at(1), at(3)]);
    expect(await cursor()).toBe(at(3));
    expect(warned).toContainEqual(expect.objectContaining({ follower: "test-unreadable", cursor: at(2), reason: "receiver: Invalid string" }));
  });

  it(`skips an event that fails to apply ${APPLY_ATTEMPTS} passes in a row, with an error line, and applies the rest`, async () => {
    const applied: string[] = [];
    const { follower, warned, cursor } = followerOver("test-poison", [{ cursor: at(1) }, { cursor: at(2) }, { cursor: at(3) }], (page) => {
      if (page.some((event) => event.cursor === at(2))) return Promise.reject(new Error("numeric field overflow"));
      applied.push(...page.map((event) => event.cursor));
      return Promise.resolve();
    });
    for (let pass = 1; pass < APPLY_ATTEMPTS; pass++) {
      expect(await follower.pass(60_000)).toMatchObject({ held: true, caughtUp: false });
      expect(await cursor()).toBeNull();
    }
    expect(await follower.pass(60_000)).toMatchObject({ held: true, skipped: 1, caughtUp: true });
    expect(await cursor()).toBe(at(3));
    expect(applied.at(-1)).toBe(at(3));
    expect(warned).toContainEqual(expect.objectContaining({ follower: "test-poison", cursor: at(2) }));
  });

  it("never skips an event because the indexer could not tell: it waits for it", async () => {
    let down = true;
    const { follower, cursor } = followerOver("test-wait", [{ cursor: at(1) }], () => (down ? Promise.reject(new IndexerUnavailableError("the indexer is down")) : Promise.resolve()));
    for (let pass = 0; pass < APPLY_ATTEMPTS + 2; pass++) expect(await follower.pass(60_000)).toMatchObject({ skipped: 0, caughtUp: false });
    expect(await cursor()).toBeNull();
    down = false;
    expect(await follower.pass(60_000)).toMatchObject({ events: 1, skipped: 0, caughtUp: true });
    expect(await cursor()).toBe(at(1));
  });
});
