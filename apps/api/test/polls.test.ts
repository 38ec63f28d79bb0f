import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

interface Poll {
  id: string;
  question: string;
  status: "open" | "closed";
  closesAt: string | null;
  options: { id: string; label: string; votes: number }[];
  totalVotes: number;
  myVote: string | null;
}

const indexer = new FakeIndexer();
let t: TestApp;
let human = 70_000n;

beforeAll(async () => {
  t = await createTestApp({ indexer, env: { RATE_LIMIT_PER_ADDRESS: "1000" } });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  indexer.down = false;
});

const polls = () => t.app.services.polls;

async function verifiedUser(nullifierHash = ++human): Promise<TestUser> {
  const user = await newUser(t.app);
  indexer.mint(user.account.address, nullifierHash);
  return user;
}

async function list(user?: TestUser, locale?: string): Promise<Poll[]> {
  const response = await t.app.inject({ method: "GET", url: `/api/polls${locale ? `?locale=${locale}` : ""}`, ...(user ? { headers: bearer(user.token) } : {}) });
  expect(response.statusCode).toBe(200);
  return response.json<{ polls: Poll[] }>().polls;
}

function vote(user: TestUser | undefined, pollId: string, optionId: string, address = user?.address ?? "") {
  return t.app.inject({
    method: "POST",
    url: `/api/polls/${pollId}/vote?userAddress=${address}`,
    payload: { optionId },
    ...(user ? { headers: bearer(user.token) } : {}),
  });
}

describe("polls: listing and voting", () => {
  it("lists open polls first with translated texts (en fallback); polls not yet open are hidden", async () => {
    const open = await polls().create({
      question: { en: "Which partner app next?", es: "¿Qué app asociada sigue?" },
      options: [{ en: "A swap app", es: "Una app de intercambio" }, { en: "A game" }],
      closesAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const closed = await polls().create({
      question: { en: "Was the halving a good idea?" },
      options: [{ en: "Yes" }, { en: "No" }],
      opensAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      closesAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    const future = await polls().create({ question: { en: "Later" }, options: [{ en: "a" }, { en: "b" }], opensAt: new Date(Date.now() + 3_600_000).toISOString() });

    const spanish = await list(undefined, "es-MX");
    const ids = spanish.map((poll) => poll.id);
    expect(ids).toContain(open.id);
    expect(ids).toContain(closed.id);
    expect(ids).not.toContain(future.id);
    expect(ids.indexOf(open.id)).toBeLessThan(ids.indexOf(closed.id));
    const shown = spanish.find((poll) => poll.id === open.id);
    expect(shown).toMatchObject({ question: "¿Qué app asociada sigue?", status: "open", totalVotes: 0, myVote: null });
    expect(shown?.options.map((option) => option.label)).toEqual(["Una app de intercambio", "A game"]);
    expect(spanish.find((poll) => poll.id === closed.id)).toMatchObject({ status: "closed", question: "Was the halving a good idea?" });
  });

  it("counts one vote per human, shows the caller's vote, and lets it change while open", async () => {
    const poll = await polls().create({ question: { en: "Best day to claim?" }, options: [{ en: "Monday" }, { en: "Friday" }] });
    const [monday, friday] = poll.options.sort((a, b) => a.position - b.position);
    if (!monday || !friday) throw new Error("options");
    const ana = await verifiedUser();
    const ben = await verifiedUser();

    const first = await vote(ana, poll.id, monday.id);
    expect(first.statusCode).toBe(200);
    expect(first.json<{ poll: Poll }>().poll).toMatchObject({ myVote: monday.id, totalVotes: 1 });
    await vote(ben, poll.id, monday.id);
    const changed = await vote(ana, poll.id, friday.id);
    expect(changed.json<{ poll: Poll }>().poll.options.map((option) => option.votes)).toEqual([1, 1]);

    // A second wallet of the same human changes that human's vote instead of adding one.
    const anaSecondWallet = await newUser(t.app);
    const [anaMint] = await indexer.claims(ana.account.address, 1);
    indexer.mint(anaSecondWallet.account.address, BigInt(anaMint?.nullifierHash ?? 0));
    await vote(anaSecondWallet, poll.id, monday.id);

    const seenByAna = (await list(ana)).find((entry) => entry.id === poll.id);
    expect(seenByAna?.options.map((option) => option.votes)).toEqual([2, 0]);
    expect(seenByAna?.totalVotes).toBe(2);
    // Her vote, changed from the second wallet, is what her first wallet shows as hers.
    expect(seenByAna?.myVote).toBe(monday.id);
    expect((await list(ben)).find((entry) => entry.id === poll.id)?.myVote).toBe(monday.id);
    expect((await list(anaSecondWallet)).find((entry) => entry.id === poll.id)?.myVote).toBe(monday.id);
    expect((await list()).find((entry) => entry.id === poll.id)?.myVote).toBeNull();
    expect(await t.db.database.prisma.pollVote.count({ where: { pollId: poll.id } })).toBe(2);
  });

  it("a wallet votes as its first minter (its owner), not as another human who minted to it since", async () => {
    const poll = await polls().create({ question: { en: "Whose vote?" }, options: [{ en: "x" }, { en: "y" }] });
    const [x, y] = poll.options.sort((a, b) => a.position - b.position);
    if (!x || !y) throw new Error("options");
    const owner = ++human;
    const other = ++human;
    const ownersOther = await verifiedUser(owner);
    const othersOwn = await verifiedUser(other);
    const wallet = await newUser(t.app);
    indexer.mint(wallet.account.address, owner);
    indexer.mint(wallet.account.address, other);

    expect((await vote(ownersOther, poll.id, y.id)).statusCode).toBe(200);
    expect((await vote(othersOwn, poll.id, y.id)).statusCode).toBe(200);

    // The vote from the wallet changes its owner's vote, and leaves the other human's alone.
    expect((await vote(wallet, poll.id, x.id)).statusCode).toBe(200);
    const seen = (await list(ownersOther)).find((entry) => entry.id === poll.id);
    expect(seen?.myVote).toBe(x.id);
    expect(seen?.options.map((option) => option.votes)).toEqual([1, 1]);
    expect((await list(othersOwn)).find((entry) => entry.id === poll.id)?.myVote).toBe(y.id);
    expect((await list(wallet)).find((entry) => entry.id === poll.id)?.myVote).toBe(x.id);
  });

  it("refuses votes from a wallet that never claimed, on a closed poll, for another poll's option, or on no poll", async () => {
    const poll = await polls().create({ question: { en: "Q" }, options: [{ en: "a" }, { en: "b" }] });
    const other = await polls().create({ question: { en: "Other" }, options: [{ en: "c" }, { en: "d" }] });
    const optionId = poll.options[0]?.id ?? "";
    const unverified = await newUser(t.app);
    const never = await vote(unverified, poll.id, optionId);
    expect(never.statusCode).toBe(403);
    expect(never.json()).toMatchObject({ error: "NOT_VERIFIED_HUMAN" });

    const voter = await verifiedUser();
    const wrongOption = await vote(voter, poll.id, other.options[0]?.id ?? "");
    expect(wrongOption.statusCode).toBe(400);
    expect(wrongOption.json()).toMatchObject({ error: "OPTION_NOT_FOUND" });
    expect((await vote(voter, randomUUID(), optionId)).json()).toMatchObject({ error: "POLL_NOT_FOUND" });

    await vote(voter, poll.id, optionId);
    expect(await polls().close(poll.id)).toBe(true);
    const closed = await vote(voter, poll.id, poll.options[1]?.id ?? "");
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ error: "POLL_CLOSED" });
    expect((await list(voter)).find((entry) => entry.id === poll.id)).toMatchObject({ status: "closed", myVote: optionId, totalVotes: 1 });
  });
});

describe("polls: totals across processes, and what is refused", () => {
  it("shows every vote at once, whichever process wrote it, changed it or removed it", async () => {
    const prisma = t.db.database.prisma;
    const closed = await polls().create({
      question: { en: "Counted when closed" },
      options: [{ en: "a" }, { en: "b" }],
      opensAt: new Date(Date.now() - 3_600_000).toISOString(),
      closesAt: new Date(Date.now() - 600_000).toISOString(),
    });
    const open = await polls().create({ question: { en: "Counted when open" }, options: [{ en: "a" }, { en: "b" }] });
    const voter = await newUser(t.app);
    const userId = (await prisma.user.findUniqueOrThrow({ where: { address: voter.address } })).id;
    // Votes another API process wrote (the closed poll's before it closed).
    const written = (poll: typeof open, n: number) =>
      Array.from({ length: n }, (_, i) => ({ pollId: poll.id, optionId: poll.options[0]?.id ?? "", nullifierHash: `0x${(900_000 + i).toString(16)}-${poll.id}`, userId }));
    await prisma.pollVote.createMany({ data: [...written(closed, 3), ...written(open, 2)] });
    const seen = async (poll: typeof open) => (await list()).find((entry) => entry.id === poll.id)?.options.map((option) => option.votes);
    expect(await seen(closed)).toEqual([3, 0]);
    expect(await seen(open)).toEqual([2, 0]);

    // One vote of each poll removed by another process; a vote cast here; another process's votes moved.
    await prisma.pollVote.deleteMany({ where: { pollId: { in: [closed.id, open.id] }, nullifierHash: { startsWith: `0x${(900_000).toString(16)}-` } } });
    expect(await seen(closed)).toEqual([2, 0]);
    expect(await seen(open)).toEqual([1, 0]);
    const optionId = open.options[1]?.id ?? "";
    expect((await vote(await verifiedUser(), open.id, optionId)).json<{ poll: Poll }>().poll.options.map((option) => option.votes)).toEqual([1, 1]);
    await prisma.pollVote.updateMany({ where: { pollId: open.id }, data: { optionId } });
    expect(await seen(open)).toEqual([0, 2]);
  });

  it("keeps each option's total equal to its votes as votes are cast, changed and removed (the database's triggers)", async () => {
    const prisma = t.db.database.prisma;
    const poll = await polls().create({ question: { en: "Totals" }, options: [{ en: "a" }, { en: "b" }, { en: "c" }] });
    const [a, b, c] = poll.options.sort((x, y) => x.position - y.position);
    if (!a || !b || !c) throw new Error("options");
    /** The totals the database keeps, against a count of the votes themselves and the answer the route gives. */
    const expectTotals = async (votes: [number, number, number]) => {
      const totals = await prisma.pollVoteTotals.findMany({ where: { option: { pollId: poll.id } } });
      const counted = await prisma.pollVote.groupBy({ by: ["optionId"], where: { pollId: poll.id }, _count: { _all: true } });
      const of = (rows: { optionId: string; votes: number }[]) => [a, b, c].map((option) => rows.find((row) => row.optionId === option.id)?.votes ?? 0);
      expect(of(totals)).toEqual(votes);
      expect(of(counted.map((row) => ({ optionId: row.optionId, votes: row._count._all })))).toEqual(votes);
      expect((await list()).find((entry) => entry.id === poll.id)?.options.map((option) => option.votes)).toEqual(votes);
    };
    const [ana, ben, cai] = [await verifiedUser(), await verifiedUser(), await verifiedUser()];
    const idOf = async (user: TestUser) => (await prisma.user.findUniqueOrThrow({ where: { address: user.address } })).id;
    await vote(ana, poll.id, a.id);
    await vote(ben, poll.id, a.id);
    await vote(cai, poll.id, b.id);
    await expectTotals([2, 1, 0]);

    // Votes changed through the API (one row each); then votes cast and moved many in one statement.
    await vote(ana, poll.id, c.id);
    await vote(ben, poll.id, a.id);
    await expectTotals([1, 1, 1]);
    const benId = await idOf(ben);
    const others = Array.from({ length: 6 }, (_, i) => ({ pollId: poll.id, optionId: i % 2 === 0 ? a.id : b.id, nullifierHash: `0xtotals-${i}`, userId: benId }));
    await prisma.pollVote.createMany({ data: others });
    await expectTotals([4, 4, 1]);
    await prisma.pollVote.updateMany({ where: { pollId: poll.id, optionId: a.id }, data: { optionId: c.id } });
    await expectTotals([0, 4, 5]);
    // A change that keeps the option (the same human voting again from another wallet) leaves the totals.
    await prisma.pollVote.updateMany({ where: { pollId: poll.id, optionId: b.id, nullifierHash: { startsWith: "0xtotals-" } }, data: { userId: await idOf(cai) } });
    await expectTotals([0, 4, 5]);

    // Votes removed: some at once, and those of a deleted account (the cascade).
    await prisma.pollVote.deleteMany({ where: { pollId: poll.id, nullifierHash: { in: ["0xtotals-0", "0xtotals-1"] } } });
    await expectTotals([0, 3, 4]);
    await prisma.user.delete({ where: { id: benId } });
    await expectTotals([0, 3, 1]);
    // An option removed takes its votes and its total along.
    await prisma.pollOption.delete({ where: { id: c.id } });
    expect(await prisma.pollVoteTotals.findUnique({ where: { optionId: c.id } })).toBeNull();
    expect((await list()).find((entry) => entry.id === poll.id)?.options.map((option) => option.votes)).toEqual([0, 3]);
  });

  it("needs a session, a uuid and an option; 503 while the human cannot be checked", async () => {
    const poll = await polls().create({ question: { en: "Q2" }, options: [{ en: "a" }, { en: "b" }] });
    const optionId = poll.options[0]?.id ?? "";
    const user = await verifiedUser();
    const stranger = await verifiedUser();
    expect((await vote(undefined, poll.id, optionId, user.address)).statusCode).toBe(401);
    expect((await vote(stranger, poll.id, optionId, user.address)).statusCode).toBe(403);
    const badId = await vote(user, "not-a-uuid", optionId);
    expect(badId.json()).toMatchObject({ issues: [{ field: "params.id" }] });
    const badBody = await t.app.inject({ method: "POST", url: `/api/polls/${poll.id}/vote?userAddress=${user.address}`, headers: bearer(user.token), payload: {} });
    expect(badBody.json()).toMatchObject({ issues: [{ field: "body.optionId" }] });
    indexer.down = true;
    const unavailable = await vote(user, poll.id, optionId);
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json()).toMatchObject({ error: "HUMAN_CHECK_UNAVAILABLE" });
  });

  it("validates what the operator creates", async () => {
    await expect(polls().create({ question: { en: "Only one option" }, options: [{ en: "a" }] })).rejects.toThrow();
    await expect(polls().create({ question: { es: "sin inglés" }, options: [{ en: "a" }, { en: "b" }] })).rejects.toThrow();
    await expect(polls().create({ question: { en: "Q", de: "Frage" }, options: [{ en: "a" }, { en: "b" }] })).rejects.toThrow();
    await expect(
      polls().create({ question: { en: "Q" }, options: [{ en: "a" }, { en: "b" }], opensAt: "2030-01-02T00:00:00Z", closesAt: "2030-01-01T00:00:00Z" }),
    ).rejects.toThrow(/closesAt/);
  });
});
