import { randomUUID } from "node:crypto";
import { addresses, CHAIN_IDS } from "@oro/clients";
import { toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITES_PAGE_SIZE } from "../src/services/referrals/invites-page.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { acceptCode, newUser, oroEarned, referralCodeOf, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

const claimContract = addresses[CHAIN_IDS.development].ReferralClaim;
const DAY_MS = 86_400_000;

let t: TestApp;
const indexer = new FakeIndexer();
let counter = 0;

beforeAll(async () => {
  t = await createTestApp({ indexer, env: { REFERRAL_PENDING_TTL: "30d" } });
});
afterAll(async () => {
  await t.close();
});

type Kind = "claimable-open" | "claimable-claimed" | "auto-paid" | "auto-pending";

interface SeededInvite {
  refereeId: string;
  kind: Kind;
  updatedAt: Date;
  amountWei: bigint;
  voucherNonce: bigint;
}

/** `referrer` invited one person per entry of `invites`, each paid (a referrer reward as described). */
async function seedInvites(referrer: TestUser, invites: { kind: Kind; updatedAt: Date; amountWei?: bigint }[]): Promise<SeededInvite[]> {
  const prisma = t.db.database.prisma;
  const code = await referralCodeOf(t.app, referrer);
  const referrerRow = await prisma.user.findUniqueOrThrow({ where: { address: referrer.address } });
  const codeRow = await prisma.referralCode.findUniqueOrThrow({ where: { code } });
  const seeded: SeededInvite[] = [];
  const users = [];
  const referrals = [];
  const rewards = [];
  for (const invite of invites) {
    const n = ++counter;
    const refereeId = randomUUID();
    const referralId = randomUUID();
    const amountWei = invite.amountWei ?? BigInt(n) * 10n ** 15n;
    const voucherNonce = 1_000_000n + BigInt(n);
    users.push({ id: refereeId, address: privateKeyToAccount(generatePrivateKey()).address.toLowerCase(), username: `invitee${n}` });
    referrals.push({
      id: referralId,
      referrerId: referrerRow.id,
      refereeId,
      referralCodeId: codeRow.id,
      status: "payable" as const,
      refereeNullifierHash: toHex(10_000_000n + BigInt(n), { size: 32 }),
      referrerNullifierHash: toHex(1n, { size: 32 }),
    });
    rewards.push({
      referralId,
      side: "referrer" as const,
      beneficiaryId: referrerRow.id,
      paymentType: invite.kind.startsWith("claimable") ? ("claimable" as const) : ("auto" as const),
      amountWei: amountWei.toString(),
      voucherNonce: voucherNonce.toString(),
      voucherSignature: "0x00",
      chainId: CHAIN_IDS.development,
      contractAddress: claimContract.toLowerCase(),
      status: invite.kind === "auto-paid" ? ("paid" as const) : invite.kind === "auto-pending" ? ("payout_pending" as const) : ("claimable" as const),
      claimedAt: invite.kind === "claimable-claimed" || invite.kind === "auto-paid" ? invite.updatedAt : null,
      updatedAt: invite.updatedAt,
    });
    seeded.push({ refereeId, kind: invite.kind, updatedAt: invite.updatedAt, amountWei, voucherNonce });
  }
  await prisma.user.createMany({ data: users });
  await prisma.referral.createMany({ data: referrals });
  await prisma.referralReward.createMany({ data: rewards });
  return seeded;
}

type Page = Awaited<ReturnType<typeof oroEarned>>;

function earnedPage(user: TestUser, cursor?: string) {
  const query = new URLSearchParams({ userAddress: user.address, forceBustCache: "true" });
  if (cursor !== undefined) query.set("cursor", cursor);
  return t.app.inject({ method: "GET", url: `/api/referrals/oro-earned?${query.toString()}`, headers: bearer(user.token) });
}

async function allPages(user: TestUser): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  for (;;) {
    const response = await earnedPage(user, cursor);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<Page>();
    pages.push(page);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
    if (pages.length > 100) throw new Error("the pages never end");
  }
}

/** The spec's groups: 0 claimable and not claimed, 1 claimable and claimed, 2 the others. */
function group(entry: { paymentType: string; hasClaimed: boolean }): number {
  if (entry.paymentType !== "claimable") return 2;
  return entry.hasClaimed ? 1 : 0;
}

describe("GET /api/referrals/oro-earned, paged: order and totals", () => {
  it("walks every invite once, in the spec's order across page boundaries, with ties on the update time", async () => {
    const referrer = await newUser(t.app, "many");
    const base = Date.parse("2026-11-01T00:00:00.000Z");
    const kinds: Kind[] = ["claimable-open", "claimable-claimed", "auto-paid", "auto-pending"];
    // 130 invites over only 4 distinct update times: every page boundary falls inside a run of ties.
    const invites = Array.from({ length: 130 }, (_, i) => ({ kind: kinds[i % 4] ?? "auto-paid", updatedAt: new Date(base + (i % 4 === 0 ? (i % 3) : (i % 2)) * 60_000) }));
    const seeded = await seedInvites(referrer, invites);

    const pages = await allPages(referrer);
    const full = Math.floor(130 / INVITES_PAGE_SIZE);
    expect(pages.map((page) => page.usersReferred.length)).toEqual([...Array.from({ length: full }, () => INVITES_PAGE_SIZE), 130 - full * INVITES_PAGE_SIZE]);
    const walked = pages.flatMap((page) => page.usersReferred);
    expect(new Set(walked.map((entry) => entry.userId)).size).toBe(130);
    expect(walked.map((entry) => entry.userId).sort()).toEqual(seeded.map((invite) => invite.refereeId).sort());
    for (let i = 1; i < walked.length; i++) {
      const [previous, current] = [walked[i - 1], walked[i]];
      if (!previous || !current) throw new Error("missing entry");
      const order = group(previous) - group(current);
      expect(order, `entry ${i} comes before its group`).toBeLessThanOrEqual(0);
      if (order === 0) expect(Date.parse(previous.updatedAt), `entry ${i} is newer than the one before it`).toBeGreaterThanOrEqual(Date.parse(current.updatedAt));
    }
    // Each entry says what was seeded.
    const byId = new Map(seeded.map((invite) => [invite.refereeId, invite]));
    for (const entry of walked) {
      const invite = byId.get(entry.userId);
      expect(entry.updatedAt).toBe(invite?.updatedAt.toISOString());
      expect(entry.paymentAmountWei).toBe(invite?.amountWei.toString());
      expect(entry.hasClaimed).toBe(invite?.kind === "claimable-claimed" || invite?.kind === "auto-paid");
      expect(entry.claimableSignature !== undefined).toBe(entry.paymentType === "claimable");
    }
  });

  it("gives the totals of the whole history on every page, equal to the sum of every reward", async () => {
    const referrer = await newUser(t.app);
    const seeded = await seedInvites(
      referrer,
      Array.from({ length: 75 }, (_, i) => ({ kind: i % 2 === 0 ? ("claimable-open" as const) : ("auto-paid" as const), updatedAt: new Date(Date.now() - i * 1000) })),
    );
    const pages = await allPages(referrer);
    expect(pages).toHaveLength(Math.ceil(75 / INVITES_PAGE_SIZE));
    const sum = seeded.reduce((total, invite) => total + invite.amountWei, 0n);
    const pageSums = pages.flatMap((page) => page.usersReferred).reduce((total, entry) => total + BigInt(entry.paymentAmountWei), 0n);
    expect(pageSums).toBe(sum);
    for (const page of pages) {
      expect(page.totalOroEarnedWei).toBe(sum.toString());
      expect(page.usersReferredCount).toBe(75);
    }
  });

  it("keeps the totals right as rewards come and go (one row per user, kept by the database's triggers)", async () => {
    const referrer = await newUser(t.app);
    const prisma = t.db.database.prisma;
    const totalsOf = async () => {
      const page = (await earnedPage(referrer)).json<Page>();
      return { earned: BigInt(page.totalOroEarnedWei), count: page.usersReferredCount };
    };
    const [, autoPaid] = await seedInvites(referrer, [
      { kind: "claimable-open", updatedAt: new Date(), amountWei: 3n },
      { kind: "auto-paid", updatedAt: new Date(), amountWei: 5n },
    ]);
    expect(await totalsOf()).toEqual({ earned: 8n, count: 2 });
    // A second statement adds to the same row; a status change (a payout) leaves the totals alone.
    await seedInvites(referrer, [{ kind: "claimable-open", updatedAt: new Date(), amountWei: 7n }]);
    const owner = await prisma.user.findUniqueOrThrow({ where: { address: referrer.address } });
    await prisma.referralReward.updateMany({ where: { beneficiaryId: owner.id }, data: { status: "paid" } });
    expect(await totalsOf()).toEqual({ earned: 15n, count: 3 });
    // A reward gone (its referee's account deleted, cascading) is taken off; an amount corrected is followed.
    if (!autoPaid) throw new Error("two invites were seeded");
    await prisma.user.delete({ where: { id: autoPaid.refereeId } });
    expect(await totalsOf()).toEqual({ earned: 10n, count: 2 });
    const reward = await prisma.referralReward.findFirstOrThrow({ where: { beneficiaryId: owner.id, amountWei: 3 } });
    await prisma.referralReward.update({ where: { id: reward.id }, data: { amountWei: 4 } });
    expect(await totalsOf()).toEqual({ earned: 11n, count: 2 });
  });

  it("keeps the spec's fields in the first page, so that a client reading only them still works", async () => {
    const referrer = await newUser(t.app);
    await seedInvites(referrer, [{ kind: "claimable-open", updatedAt: new Date() }]);
    const first = await oroEarned(t.app, referrer);
    expect(Object.keys(first).sort()).toEqual(["nextCursor", "refereeRewardPending", "referredByUsername", "rewardForBeingReferee", "totalOroEarnedWei", "usersReferred", "usersReferredCount"]);
    expect(first).toMatchObject({ rewardForBeingReferee: null, referredByUsername: null, nextCursor: null, usersReferredCount: 1 });
    expect(first.usersReferred.map((entry) => entry.username)).toEqual([expect.stringMatching(/^invitee/) as unknown]);
  });
});

describe("GET /api/referrals/oro-earned, paged: cursors, the indexer and the index", () => {
  it("refuses a cursor of another user's list, of another order, or not issued by the API, naming the field", async () => {
    const owner = await newUser(t.app);
    const other = await newUser(t.app);
    await seedInvites(owner, Array.from({ length: INVITES_PAGE_SIZE + 1 }, (_, i) => ({ kind: "claimable-open" as const, updatedAt: new Date(Date.now() - i) })));
    const first = (await earnedPage(owner)).json<Page>();
    const cursor = first.nextCursor;
    if (cursor === null) throw new Error("a second page was expected");
    expect((await earnedPage(owner, cursor)).statusCode).toBe(200);

    const payload = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<string, unknown>;
    const forged = (change: Record<string, unknown>) => Buffer.from(JSON.stringify({ ...payload, ...change }), "utf8").toString("base64url");
    const refused: [string, TestUser, string][] = [
      ["another user's cursor", other, cursor],
      ["another order", owner, forged({ o: "newest-first" })],
      ["an unknown group", owner, forged({ r: 7 })],
      ["not base64 JSON", owner, "bm90LWpzb24"],
      ["characters outside base64url", owner, "abc$def"],
      // Forged by the owner from their own cursor: values the database cannot take must be refused before it.
      ["a time in the year 10000", owner, forged({ t: Date.UTC(10_000, 0, 1) })],
      ["the last time JavaScript can hold", owner, forged({ t: 8_640_000_000_000_000 })],
      ["a time before 1970", owner, forged({ t: -1 })],
      ["a fractional time", owner, forged({ t: 1.5 })],
      ["a NUL in the id", owner, forged({ i: "a\u0000b" })],
      ["a lone surrogate in the id", owner, forged({ i: "\ud800" })],
      ["an id that is not a reward's", owner, forged({ i: "'; DROP TABLE referral_reward; --" })],
      ["a time as text", owner, forged({ t: "2026-01-01" })],
      ["a JSON array", owner, Buffer.from("[1,2]", "utf8").toString("base64url")],
      ["JSON null", owner, Buffer.from("null", "utf8").toString("base64url")],
    ];
    // The latest time a timestamp is written in plainly (9999-12-31T23:59:59.999Z) is still a position: every invite sorts before it.
    const latest = await earnedPage(owner, forged({ t: Date.UTC(9_999, 11, 31, 23, 59, 59, 999) }));
    expect(latest.statusCode, latest.body).toBe(200);
    for (const [why, user, bad] of refused) {
      const response = await earnedPage(user, bad);
      expect(response.statusCode, why).toBe(400);
      expect(response.json<{ issues: { field: string }[] }>().issues[0]?.field, why).toBe("querystring.cursor");
    }
  });

  it("asks the indexer about a page's open vouchers in one request, however many the referrer was paid before", async () => {
    const referrer = await newUser(t.app);
    // Three pages' worth paid since the last read (the newest ones).
    const paidCount = 3 * INVITES_PAGE_SIZE;
    const total = paidCount + 2 * INVITES_PAGE_SIZE;
    const seeded = await seedInvites(
      referrer,
      Array.from({ length: total }, (_, i) => ({ kind: "claimable-open" as const, updatedAt: new Date(Date.now() - i * 1000) })),
    );
    const paid = new Set(seeded.slice(0, paidCount).map((invite) => invite.refereeId));
    for (const invite of seeded.slice(0, paidCount)) indexer.payout(referrer.account.address, invite.voucherNonce, invite.amountWei);
    const asked: number[] = [];
    const pages: Page[] = [];
    let cursor: string | undefined;
    do {
      const before = indexer.calls;
      const response = await earnedPage(referrer, cursor);
      expect(response.statusCode, response.body).toBe(200);
      asked.push(indexer.calls - before);
      const page = response.json<Page>();
      pages.push(page);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined && pages.length < 100);
    const walked = pages.flatMap((page) => page.usersReferred);
    expect(walked).toHaveLength(total);
    for (const entry of walked) expect(entry.hasClaimed, entry.userId).toBe(paid.has(entry.userId));
    // The first page asked once per page's worth it found paid and once more to see the rest open (at most four
    // times); every later page asks once if it shows an open voucher, else not at all.
    expect(asked[0]).toBe(4);
    expect(asked.slice(1)).toEqual(pages.slice(1).map((page) => (page.usersReferred.some((entry) => !entry.hasClaimed) ? 1 : 0)));
    // Open ones first (the spec's first group), then the claimed ones; read again, the first page asks once.
    const open = total - paidCount;
    expect(walked.slice(0, open).every((entry) => !entry.hasClaimed)).toBe(true);
    const before = indexer.calls;
    expect((await earnedPage(referrer)).json<Page>().usersReferred.map((entry) => entry.userId)).toEqual(pages[0]?.usersReferred.map((entry) => entry.userId));
    expect(indexer.calls - before).toBe(1);
  });

  it("reads a page through the keyset index, not by sorting the user's rewards (PostgreSQL's plan)", async () => {
    if (t.db.kind !== "postgres") return;
    const prisma = t.db.database.prisma;
    await prisma.$executeRawUnsafe("SET enable_seqscan = off");
    const plan = await prisma.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN SELECT "id" FROM "referral_reward"
      WHERE "beneficiary_id" = 'x' AND "side" = 'referrer'
        AND ((CASE WHEN "payment_type" = 'claimable' AND "claimed_at" IS NULL AND "status" <> 'paid' THEN 2
          WHEN "payment_type" = 'claimable' THEN 1
          ELSE 0 END), "updated_at", "id") < (2, '2026-11-01T00:00:00.000Z'::timestamp(3), 'z')
      ORDER BY (CASE WHEN "payment_type" = 'claimable' AND "claimed_at" IS NULL AND "status" <> 'paid' THEN 2
          WHEN "payment_type" = 'claimable' THEN 1
          ELSE 0 END) DESC, "updated_at" DESC, "id" DESC LIMIT 51`);
    await prisma.$executeRawUnsafe("RESET enable_seqscan");
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toContain("referral_reward_invites_order_idx");
    expect(text).not.toMatch(/Sort/);
  });
});

describe("pending referrals expire (REFERRAL_PENDING_TTL)", () => {
  async function pendingReferral(ageMs: number) {
    const referrer = await newUser(t.app);
    indexer.mint(referrer.account.address, BigInt(90_000_000 + ++counter), Math.floor(Date.now() / 1000) - 40 * 86_400);
    const referee = await newUser(t.app);
    expect((await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer))).statusCode).toBe(200);
    const prisma = t.db.database.prisma;
    const refereeRow = await prisma.user.findUniqueOrThrow({ where: { address: referee.address } });
    const referral = await prisma.referral.update({
      where: { refereeId: refereeRow.id },
      data: { createdAt: new Date(Date.now() - ageMs), acceptedAtBlockTime: new Date(Date.now() - ageMs), lastCheckedAt: null },
    });
    return { referrer, referee, referral };
  }

  const statusOf = (id: string) => t.db.database.prisma.referral.findUniqueOrThrow({ where: { id } });

  it("refuses a referral whose referee has not minted by its end, after one last check, and never checks it again", async () => {
    const { referral } = await pendingReferral(31 * DAY_MS);
    const young = await pendingReferral(1 * DAY_MS);
    await t.app.services.referrals.activateDue(1_000);
    const expired = await statusOf(referral.id);
    expect(expired).toMatchObject({ status: "rejected", rejectionReason: "PENDING_EXPIRED" });
    expect(expired.lastCheckedAt).not.toBeNull();
    // The young one is still waiting, and is still checked.
    expect(await statusOf(young.referral.id)).toMatchObject({ status: "pending" });

    const checkedAt = expired.lastCheckedAt;
    const youngCheckedAt = (await statusOf(young.referral.id)).lastCheckedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.app.services.referrals.activateDue(1_000);
    expect((await statusOf(referral.id)).lastCheckedAt).toEqual(checkedAt);
    expect((await statusOf(young.referral.id)).lastCheckedAt).not.toEqual(youngCheckedAt);
    // Nor does an earnings request of either side bring it back.
    expect((await t.app.services.referrals.activate(referral.id)).outcome).toBe("unchanged");
  });

  it("two replicas sweeping at once check each pending referral once, none again within the recheck time, all in one pass", async () => {
    for (let i = 0; i < 4; i++) await pendingReferral(1 * DAY_MS);
    const other = await createTestApp({ indexer, env: { REFERRAL_PENDING_TTL: "30d" }, testDatabase: t.db });
    const prisma = t.db.database.prisma;
    try {
      // What one sweep over every pending referral asks the indexer.
      await prisma.referral.updateMany({ where: { status: "pending" }, data: { lastCheckedAt: null } });
      let before = indexer.calls;
      await t.app.services.referrals.activateDue(1_000, 60_000);
      const alone = indexer.calls - before;
      expect(alone).toBeGreaterThan(0);
      // Two replicas at once ask no more between them.
      await prisma.referral.updateMany({ where: { status: "pending" }, data: { lastCheckedAt: null } });
      before = indexer.calls;
      await Promise.all([t.app.services.referrals.activateDue(1_000, 60_000), other.app.services.referrals.activateDue(1_000, 60_000)]);
      expect(indexer.calls - before).toBe(alone);
      // Checked a moment ago: the next sweep leaves them alone.
      before = indexer.calls;
      await other.app.services.referrals.activateDue(1_000, 60_000);
      expect(indexer.calls - before).toBe(0);
      // The worker's pass takes batch after batch until none is due (here batches of 2): one pass checks them all.
      await prisma.referral.updateMany({ where: { status: "pending" }, data: { lastCheckedAt: null } });
      before = indexer.calls;
      await t.app.services.referrals.sweepPending(2, 60_000, 60_000);
      expect(indexer.calls - before).toBe(alone);
      expect(await prisma.referral.count({ where: { status: "pending", lastCheckedAt: null } })).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("still pays a referee who minted in time although the check came after the end", async () => {
    const { referral, referee } = await pendingReferral(31 * DAY_MS);
    indexer.mint(referee.account.address, BigInt(80_000_000 + ++counter), Math.floor((Date.now() - 30 * DAY_MS) / 1000));
    await t.app.services.referrals.activateDue(1_000);
    expect(await statusOf(referral.id)).toMatchObject({ status: "payable" });
  });

  it("refuses a referee whose first mint came only after the end", async () => {
    const { referral, referee } = await pendingReferral(31 * DAY_MS);
    indexer.mint(referee.account.address, BigInt(70_000_000 + ++counter));
    await t.app.services.referrals.activateDue(1_000);
    expect(await statusOf(referral.id)).toMatchObject({ status: "rejected", rejectionReason: "PENDING_EXPIRED" });
  });

  it("keeps a referral past its end pending while the indexer cannot tell (the last check is retried)", async () => {
    const { referral } = await pendingReferral(31 * DAY_MS);
    indexer.down = true;
    try {
      await t.app.services.referrals.activate(referral.id);
    } finally {
      indexer.down = false;
    }
    expect(await statusOf(referral.id)).toMatchObject({ status: "pending" });
  });
});
