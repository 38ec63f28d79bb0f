// One chain and one scenario serve every test in order (reindexing and live ones last): a second file would start both again.
/* eslint max-lines: ["error", { max: 450, skipBlankLines: true, skipComments: true }] */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEther, toHex, type Address } from "viem";
import { deployments, devNullifierHash, devSessionSeed, devWorldId4Nullifier, idkitSessionIdOf, rpIdOf, worldId4ActionOf } from "@oro/clients";
import type {
  ClaimsResponse,
  ErrorResponse,
  HumanResponse,
  IndexingHealthResponse,
  ReferralNonceResponse,
  ReferralNoncesResponse,
  ReferralPayoutsResponse,
  MintsResponse,
  StatsResponse,
  StreakResponse,
  WalletHumansResponse,
  WorldIdStatusResponse,
} from "../../src/api/types";
import { chainActions, type LocalChain } from "../../scripts/support/local-chain";
import { playScenario, startChain, startIndexer, stopAll, streakOnceIt, WAIT, type IndexerRun, type Scenario } from "../support/indexer-scenario";

const { worldId } = deployments[31337];
const hashOf = (name: string) => toHex(devNullifierHash(name), { size: 32 });

// One local chain and one scenario (test/support/indexer-scenario.ts) serve every test below, in order: the first
// indexer backfills it, the second reindexes it from scratch and follows it live.
let chain: LocalChain;
let first: IndexerRun;
let second: IndexerRun;
let accounts: Scenario["accounts"];
let heidiSession: bigint;
let ivySession: bigint;
let T0: number;
let lastEventAt: number;
let lastEventBlock: number;
let mintsBefore: number;

beforeAll(async () => {
  chain = await startChain();
  ({ accounts, heidiSession, ivySession, T0, lastEventAt, lastEventBlock, mintsBefore } = await playScenario(chain));
  first = await startIndexer(chain, lastEventBlock);
});
afterAll(stopAll);

describe("indexer against a local chain: health and streaks", () => {
  it("stores PGlite data under the chain's identity (chain id + hash of ORO's creation block)", async () => {
    const creation = await chain.publicClient.getBlock({ blockNumber: BigInt(chain.deployment.oro.startBlock) });
    expect(existsSync(path.join(first.pgliteRoot, `31337_${creation.hash.slice(2, 10)}`))).toBe(true);
  });

  it("answers /health, and /health/indexing: current on a quiet chain though its newest event is 31 blocks old", async () => {
    expect((await fetch(`${first.baseUrl}/health`)).status).toBe(200);
    const indexing = await first.get<IndexingHealthResponse>("/health/indexing");
    const head = Number(await chain.publicClient.getBlockNumber());
    // Ponder's /status names the last event's block, or a later one once its live sync has passed the empty blocks.
    const { indexedBlock, ...rest } = indexing.body;
    expect({ status: indexing.status, body: rest }).toEqual({
      status: 200,
      body: { state: "current", reason: "every event up to the chain's head is indexed", chainHead: head, lagBlocks: 0, lagSeconds: 0 },
    });
    expect(indexedBlock).toBeGreaterThanOrEqual(lastEventBlock);
    expect(indexedBlock).toBeLessThanOrEqual(head);
    expect(head - lastEventBlock).toBeGreaterThan(30);
  });

  it("shows a streak that continued through a mint exactly 2 × wait later, for both wallets of the human", async () => {
    const expected = {
      nullifierHash: hashOf("alice"),
      currentStreak: 4,
      longestStreak: 4,
      numOfMints: 4,
      lastMintedAt: T0 + 4 * WAIT,
      nextMintAt: T0 + 5 * WAIT,
      streakExpiresAt: T0 + 6 * WAIT,
    };
    const { status, body } = await first.get<StreakResponse>(`/streaks/${accounts.alice}`);
    expect(status).toBe(200);
    expect(body).toEqual({ address: accounts.alice.toLowerCase(), ...expected });
    const second = await first.get<StreakResponse>(`/streaks/${accounts.alice2.toLowerCase()}`);
    expect(second.body).toEqual({ address: accounts.alice2.toLowerCase(), ...expected });
  });

  it("shows a wallet its owner's streak (its first minter's), not that of a human who minted to it later", async () => {
    const { body } = await first.get<StreakResponse>(`/streaks/${accounts.erin}`);
    expect(body).toEqual({
      address: accounts.erin.toLowerCase(),
      nullifierHash: hashOf("erin"),
      currentStreak: 1,
      longestStreak: 1,
      numOfMints: 1,
      lastMintedAt: T0 + 4 * WAIT + 16,
      nextMintAt: T0 + 5 * WAIT + 16,
      streakExpiresAt: T0 + 6 * WAIT + 16,
    });
  });

  it("restarts a streak after a gap of 2 × wait + 1 s and keeps the longest", async () => {
    const { body } = await first.get<StreakResponse>(`/streaks/${accounts.bob}`);
    expect(body).toMatchObject({
      currentStreak: 2,
      longestStreak: 2,
      numOfMints: 3,
      lastMintedAt: T0 + 3 * WAIT + 2,
    });
    const claims = await first.get<ClaimsResponse>(`/streaks/${accounts.bob}/claims`);
    expect(claims.body.claims.map((claim) => claim.streak)).toEqual([2, 1, 1]);
  });

  it("reads a lapsed streak as 0 once now is past lastMintedAt + 2 × wait", async () => {
    const { body } = await first.get<StreakResponse>(`/streaks/${accounts.carol}`);
    expect(body).toEqual({
      address: accounts.carol.toLowerCase(),
      nullifierHash: hashOf("carol"),
      currentStreak: 0,
      longestStreak: 1,
      numOfMints: 1,
      lastMintedAt: T0 + 2,
      nextMintAt: T0 + 2 + WAIT,
      streakExpiresAt: T0 + 2 + 2 * WAIT,
    });
  });

  it("answers zeros, not an error, for an address that never claimed (even one that held ORO)", async () => {
    for (const address of [accounts.dave, "0x000000000000000000000000000000000000dead"]) {
      const { status, body } = await first.get<StreakResponse>(`/streaks/${address}`);
      expect(status).toBe(200);
      expect(body).toEqual({
        address: address.toLowerCase(),
        nullifierHash: null,
        currentStreak: 0,
        longestStreak: 0,
        numOfMints: 0,
        lastMintedAt: null,
        nextMintAt: null,
        streakExpiresAt: null,
      });
      expect((await first.get<ClaimsResponse>(`/streaks/${address}/claims`)).body).toEqual({ claims: [] });
    }
  });

  it("refuses a malformed address with 400 and a message", async () => {
    const badChecksum = accounts.alice.replace(/[a-f]/, (letter) => letter.toUpperCase());
    for (const address of ["0x1234", "alice", `${accounts.alice}00`, badChecksum]) {
      const { status, body } = await first.get<ErrorResponse>(`/streaks/${address}`);
      expect(status, address).toBe(400);
      expect(body.error).toContain(address);
      expect((await first.get<ErrorResponse>(`/streaks/${address}/claims`)).status).toBe(400);
    }
  });
});

describe("indexer against a local chain: claims, humans and World ID 4.0", () => {
  it("lists claims newest first, with limit", async () => {
    const all = await first.get<ClaimsResponse>(`/streaks/${accounts.alice}/claims`);
    expect(all.status).toBe(200);
    expect(all.body.claims.map((claim) => [claim.timestamp, claim.streak, claim.numOfMints, claim.amount])).toEqual([
      [T0 + 3 * WAIT, 3, 3, parseEther("0.5").toString()],
      [T0 + WAIT, 2, 2, parseEther("0.5").toString()],
      [T0, 1, 1, parseEther("0.5").toString()],
    ]);
    for (const claim of all.body.claims) {
      expect(claim).toMatchObject({ receiver: accounts.alice.toLowerCase(), nullifierHash: hashOf("alice") });
      const receipt = await chain.publicClient.getTransactionReceipt({ hash: claim.transactionHash });
      expect(Number(receipt.blockNumber)).toBe(claim.blockNumber);
    }
    const newest = await first.get<ClaimsResponse>(`/streaks/${accounts.alice}/claims?limit=1`);
    expect(newest.body.claims).toEqual(all.body.claims.slice(0, 1));
    const two = await first.get<ClaimsResponse>(`/streaks/${accounts.alice}/claims?limit=2`);
    expect(two.body.claims).toEqual(all.body.claims.slice(0, 2));
    const otherWallet = await first.get<ClaimsResponse>(`/streaks/${accounts.alice2}/claims`);
    expect(otherWallet.body.claims).toMatchObject([{ amount: parseEther("0.25").toString(), streak: 4, numOfMints: 4 }]);
    const oldest = await first.get<ClaimsResponse>(`/streaks/${accounts.alice}/claims?order=oldest`);
    expect(oldest.body.claims).toEqual([...all.body.claims].reverse());
    const explicitNewest = await first.get<ClaimsResponse>(`/streaks/${accounts.alice}/claims?order=newest&limit=2`);
    expect(explicitNewest.body.claims).toEqual(all.body.claims.slice(0, 2));
    for (const limit of ["0", "101", "abc", "1.5", "-1"]) {
      const refused = await first.get<ErrorResponse>(`/streaks/${accounts.alice}/claims?limit=${limit}`);
      expect(refused.status, limit).toBe(400);
      expect(refused.body.error).toMatch(/limit/);
    }
  });

  it("lists a wallet's first mint first with order=oldest, though other humans minted to it since", async () => {
    const newest = await first.get<ClaimsResponse>(`/streaks/${accounts.erin}/claims?limit=2`);
    expect(newest.body.claims.map((claim) => claim.nullifierHash)).toEqual([hashOf("grace"), hashOf("frank")]);
    const firstMint = await first.get<ClaimsResponse>(`/streaks/${accounts.erin}/claims?order=oldest&limit=1`);
    expect(firstMint.status).toBe(200);
    expect(firstMint.body.claims).toMatchObject([{ nullifierHash: hashOf("erin"), timestamp: T0 + 4 * WAIT + 16, numOfMints: 1 }]);
    const oldestTwo = await first.get<ClaimsResponse>(`/streaks/${accounts.erin}/claims?order=oldest&limit=2`);
    expect(oldestTwo.body.claims.map((claim) => claim.nullifierHash)).toEqual([hashOf("erin"), hashOf("frank")]);
    for (const order of ["asc", "OLDEST", "first"]) {
      const refused = await first.get<ErrorResponse>(`/streaks/${accounts.erin}/claims?order=${order}`);
      expect(refused.status, order).toBe(400);
      expect(refused.body.error).toMatch(/order/);
      expect(refused.body.error).toContain(order);
    }
  });

  it("lists every human who minted to a wallet, each once, however many mints came since", async () => {
    const erin = await first.get<WalletHumansResponse>(`/streaks/${accounts.erin}/humans`);
    expect(erin.status).toBe(200);
    expect(erin.body.humans).toEqual([hashOf("erin"), hashOf("frank"), hashOf("grace")].sort());
    expect((await first.get<WalletHumansResponse>(`/streaks/${accounts.alice}/humans`)).body).toEqual({ humans: [hashOf("alice")] });
    expect((await first.get<WalletHumansResponse>(`/streaks/${accounts.dave}/humans`)).body).toEqual({ humans: [] });
    expect((await first.get<ErrorResponse>("/streaks/0x1234/humans")).status).toBe(400);
  });

  it("follows one human across World ID 3.0 and 4.0: a human who moved keeps their key and streak; a 4.0 human is one human", async () => {
    const heidi = await first.get<ClaimsResponse>(`/streaks/${accounts.heidi}/claims`);
    expect(heidi.body.claims.map((claim) => [claim.timestamp, claim.streak, claim.numOfMints, claim.nullifierHash])).toEqual([
      [T0 + WAIT + 4, 2, 2, hashOf("heidi")],
      [T0 + 3, 1, 1, hashOf("heidi")],
    ]);
    const ivyHuman = toHex(devWorldId4Nullifier("ivy", rpIdOf(worldId.rpId), worldId4ActionOf(worldId.enrolmentAction)), { size: 32 });
    const ivy = await first.get<ClaimsResponse>(`/streaks/${accounts.ivy}/claims`);
    expect(ivy.body.claims.map((claim) => [claim.timestamp, claim.streak, claim.numOfMints, claim.nullifierHash])).toEqual([
      [T0 + WAIT + 5, 2, 2, ivyHuman],
      [T0 + 4, 1, 1, ivyHuman],
    ]);
    // A 4.0 human's state follows their session mints; a mover's starts from their 3.0 history (first mint at T0 + 3).
    expect((await first.get<HumanResponse>(`/humans/${ivyHuman}`)).body).toMatchObject({
      hasMinted: true, numOfMints: 2, longestStreak: 2, firstMintedAt: T0 + 4, lastMintedAt: T0 + WAIT + 5, lastReceiver: accounts.ivy.toLowerCase(),
    });
    expect((await first.get<HumanResponse>(`/humans/${hashOf("heidi")}`)).body).toMatchObject({
      hasMinted: true, numOfMints: 2, longestStreak: 2, firstMintedAt: T0 + 3, lastMintedAt: T0 + WAIT + 4, lastReceiver: accounts.heidi.toLowerCase(),
    });
    for (const [wallet, nullifierHash, lastMintedAt] of [[accounts.heidi, hashOf("heidi"), T0 + WAIT + 4], [accounts.ivy, ivyHuman, T0 + WAIT + 5]] as const) {
      expect((await first.get<StreakResponse>(`/streaks/${wallet}`)).body, wallet).toMatchObject({ nullifierHash, numOfMints: 2, longestStreak: 2, lastMintedAt, nextMintAt: lastMintedAt + WAIT });
    }
    expect((await first.get<WalletHumansResponse>(`/streaks/${accounts.heidi}/humans`)).body.humans).toEqual([hashOf("heidi")]);
    expect(heidiSession).not.toBe(ivySession);
  });

  it("answers a wallet's World ID 4.0 session, whole as IDKit needs it: a mover, a human new under 4.0, a 3.0 human, nobody", async () => {
    const seedOf = (name: string) => devSessionSeed(name, 1n);
    const heidi = await first.get<WorldIdStatusResponse>(`/world-id/${accounts.heidi}`);
    expect(heidi.status).toBe(200);
    // Heidi moved: her session keeps her 3.0 key as its human, so her streak and history stay hers.
    expect(heidi.body).toEqual({
      address: accounts.heidi.toLowerCase() as Address,
      session: {
        idkitSessionId: idkitSessionIdOf(heidiSession, seedOf("heidi")),
        sessionId: toHex(heidiSession, { size: 32 }),
        human: hashOf("heidi"),
        movedFrom: hashOf("heidi"),
        enrolledAt: T0 + WAIT + 3,
      },
      movedToWorldId4: true,
    } satisfies WorldIdStatusResponse);
    const ivyHuman = toHex(devWorldId4Nullifier("ivy", rpIdOf(worldId.rpId), worldId4ActionOf(worldId.enrolmentAction)), { size: 32 });
    const ivy = await first.get<WorldIdStatusResponse>(`/world-id/${accounts.ivy.toLowerCase()}`);
    expect(ivy.body).toEqual({
      address: accounts.ivy.toLowerCase() as Address,
      session: { idkitSessionId: idkitSessionIdOf(ivySession, seedOf("ivy")), sessionId: toHex(ivySession, { size: 32 }), human: ivyHuman, movedFrom: null, enrolledAt: T0 + 4 },
      movedToWorldId4: false,
    } satisfies WorldIdStatusResponse);
    for (const address of [accounts.alice, accounts.dave, "0x000000000000000000000000000000000000dead"]) {
      const { status, body } = await first.get<WorldIdStatusResponse>(`/world-id/${address}`);
      expect(status, address).toBe(200);
      expect(body, address).toEqual({ address: address.toLowerCase(), session: null, movedToWorldId4: false });
    }
    for (const address of ["0x1234", "heidi", `${accounts.heidi}00`]) {
      const refused = await first.get<ErrorResponse>(`/world-id/${address}`);
      expect(refused.status, address).toBe(400);
      expect(refused.body.error).toContain(address);
    }
  });
});

describe("indexer against a local chain: stats, payouts, mints and the query languages", () => {
  it("keeps stats equal to what the chain itself says", async () => {
    const actions = chainActions(chain);
    // A human's mints: 3.0 mints by nullifier hash, 4.0 claims by the human their session was enrolled for.
    const sessions = new Map(
      (await actions.oro.getEvents.WorldId4Enrolled({}, { fromBlock: 0n })).map((log) => [log.args.sessionId, log.args.movedFrom || log.args.human]),
    );
    const minted = [
      ...(await actions.oro.getEvents.Minted({}, { fromBlock: 0n })).map((log) => ({ human: log.args.nullifierHash })),
      ...(await actions.oro.getEvents.MintedWithSession({}, { fromBlock: 0n })).map((log) => ({ human: sessions.get(log.args.sessionId) })),
    ];
    const transfers = await actions.oro.getEvents.Transfer({}, { fromBlock: 0n });
    const seen = new Set<Address>();
    for (const log of transfers) {
      if (log.args.to) seen.add(log.args.to);
      if (log.args.from) seen.add(log.args.from);
    }
    let holders = 0;
    for (const address of seen) if ((await actions.oro.read.balanceOf([address])) > 0n) holders += 1;
    const humans = new Set(minted.map((log) => log.human)).size;

    const { status, body } = await first.get<StatsResponse>("/stats");
    expect(status).toBe(200);
    expect(body).toEqual({
      chainId: 31337,
      totalSupply: (await actions.oro.read.totalSupply()).toString(),
      holders,
      humans,
      mints: minted.length,
      amountPerMint: parseEther("0.25").toString(),
      waitBetweenMints: WAIT,
      killed: false,
      referralPayouts: 1,
      referralPaidOut: parseEther("1").toString(),
      lastEventAt,
    } satisfies StatsResponse);
    expect(body.mints).toBe(mintsBefore + 15);
  });

  it("tells whether a human has minted, and to which address, by hex or decimal nullifier hash", async () => {
    const expected: HumanResponse = {
      nullifierHash: hashOf("alice"),
      hasMinted: true,
      numOfMints: 4,
      firstMintedAt: T0,
      lastMintedAt: T0 + 4 * WAIT,
      lastReceiver: accounts.alice2.toLowerCase() as Address,
      currentStreak: 4,
      longestStreak: 4,
    };
    expect(await first.get<HumanResponse>(`/humans/${hashOf("alice")}`)).toEqual({ status: 200, body: expected });
    expect(await first.get<HumanResponse>(`/humans/${devNullifierHash("alice")}`)).toEqual({ status: 200, body: expected });
    const stranger = await first.get<HumanResponse>(`/humans/${hashOf("never-minted")}`);
    expect(stranger.body).toMatchObject({ hasMinted: false, numOfMints: 0, lastReceiver: null });
    expect((await first.get<ErrorResponse>("/humans/not-a-hash")).status).toBe(400);
  });

  it("records the voucher payout and answers whether a nonce was claimed", async () => {
    const { body } = await first.get<ReferralPayoutsResponse>(`/referral-payouts/${accounts.bob}`);
    expect(body.payouts).toMatchObject([
      {
        nonce: "7",
        account: accounts.bob.toLowerCase(),
        amount: parseEther("1").toString(),
        submitter: accounts.carol.toLowerCase(),
        timestamp: lastEventAt,
      },
    ]);
    const claimed = await first.get<ReferralNonceResponse>("/referral-payouts/nonces/7");
    expect(claimed.body).toMatchObject({ nonce: "7", claimed: true, payout: body.payouts[0] });
    const unclaimed = await first.get<ReferralNonceResponse>("/referral-payouts/nonces/8");
    expect(unclaimed.body).toEqual({ nonce: "8", claimed: false, payout: null });
    // A page of vouchers in one request: only the paid ones come back, whatever the order or repeats asked.
    const many = await first.get<ReferralNoncesResponse>(`/referral-payouts/nonces?nonces=8,7,${2n ** 256n - 1n},7`);
    expect(many).toEqual({ status: 200, body: { claimed: ["7"] } });
    expect((await first.get<ReferralNoncesResponse>("/referral-payouts/nonces?nonces=8")).body).toEqual({ claimed: [] });
    const hundredAndOne = Array.from({ length: 101 }, (_, i) => i).join(",");
    for (const refused of ["", "?nonces=", "?nonces=7,x", `?nonces=${2n ** 256n}`, `?nonces=${hundredAndOne}`]) {
      const answer = await first.get<ErrorResponse>(`/referral-payouts/nonces${refused}`);
      expect(answer.status, refused).toBe(400);
      expect(answer.body.error, refused).toMatch(/nonce/);
    }
  });

  it("lists every mint and every payout in chain order, a page after a cursor", async () => {
    const all = await first.get<MintsResponse>("/mints?limit=1000");
    expect(all.status).toBe(200);
    const { mints } = all.body;
    const stats = await first.get<StatsResponse>("/stats");
    expect(mints).toHaveLength(stats.body.mints);
    // Chain order: by block, then by log within the block; the cursors sort the same way.
    const order = (claim: { blockNumber: number; logIndex: number }) => claim.blockNumber * 1_000_000 + claim.logIndex;
    expect(mints.map(order)).toEqual([...mints.map(order)].sort((a, b) => a - b));
    expect(mints.map((claim) => claim.cursor)).toEqual([...mints.map((claim) => claim.cursor)].sort());
    // Pages after a cursor go on exactly where the last one stopped, the first with no cursor at all.
    const pages: string[] = [];
    let after = "";
    for (;;) {
      const page = await first.get<MintsResponse>(`/mints?limit=2${after ? `&after=${after}` : ""}`);
      pages.push(...page.body.mints.map((claim) => claim.cursor));
      const last = page.body.mints.at(-1);
      if (!last) break;
      after = last.cursor;
    }
    expect(pages).toEqual(mints.map((claim) => claim.cursor));
    // Each row is the claim the wallet's listing gives.
    const bobs = await first.get<ClaimsResponse>(`/streaks/${accounts.bob}/claims?order=oldest`);
    expect(mints.filter((claim) => claim.receiver === accounts.bob.toLowerCase())).toEqual(bobs.body.claims);

    const payouts = await first.get<ReferralPayoutsResponse>("/referral-payouts");
    const bobsPayouts = await first.get<ReferralPayoutsResponse>(`/referral-payouts/${accounts.bob}`);
    expect(payouts.body.payouts).toEqual(bobsPayouts.body.payouts);
    const [payout] = payouts.body.payouts;
    expect((await first.get<ReferralPayoutsResponse>(`/referral-payouts?after=${payout?.cursor}`)).body).toEqual({ payouts: [] });

    // The longest cursor there can be is after every event: an empty page, not an error.
    for (const path of ["/mints", "/referral-payouts"]) {
      expect((await first.get<Record<string, unknown[]>>(`${path}?after=${"9".repeat(100)}`)).body).toEqual({ [path === "/mints" ? "mints" : "payouts"]: [] });
    }
    const refusedQueries = ["limit=0", "limit=1001", `limit=${"9".repeat(400)}`, "limit=%00", "after=x", "after=0x12", `after=${"1".repeat(101)}`, "after=1%00", "after=%00", "after=1e400", "after=-1"];
    for (const refused of refusedQueries) {
      for (const path of ["/mints", "/referral-payouts"]) {
        const answer = await first.get<ErrorResponse>(`${path}?${refused}`);
        expect(answer.status, `${path}?${refused}`).toBe(400);
        expect(answer.body.error, refused).toMatch(refused.startsWith("limit") ? /limit/ : /after/);
      }
    }
  });

  it("serves GraphQL and SQL over HTTP; GraphQL's human covers both kinds of human by one key", async () => {
    const graphql = async <T>(query: string) => {
      const response = await fetch(`${first.baseUrl}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
      expect(response.status).toBe(200);
      return (await response.json()) as { data: T; errors?: unknown };
    };
    const humanNamed = (key: string, fields: string) => `humans(where: { nullifierHash: "${BigInt(key)}" }) { items { ${fields} } }`;
    expect(await graphql(`{ ${humanNamed(hashOf("bob"), "numOfMints longestStreak")} }`)).toEqual({ data: { humans: { items: [{ numOfMints: 3, longestStreak: 2 }] } } });
    // A mover's state (her 3.0 key) and a human new under 4.0's (their enrolment nullifier) follow their session mints.
    const ivyHuman = toHex(devWorldId4Nullifier("ivy", rpIdOf(worldId.rpId), worldId4ActionOf(worldId.enrolmentAction)), { size: 32 });
    const both = await graphql<{ heidi: { items: unknown[] }; ivy: { items: unknown[] }; all: { items: { nullifierHash: string }[] } }>(
      `{ heidi: ${humanNamed(hashOf("heidi"), "numOfMints lastMintedAt worldId4SessionId")} ivy: ${humanNamed(ivyHuman, "numOfMints firstMintedAt lastMintedAt lastReceiver")} all: humans(limit: 1000) { items { nullifierHash } } }`,
    );
    expect(both.errors).toBeUndefined();
    expect(both.data.heidi.items).toEqual([{ numOfMints: 2, lastMintedAt: T0 + WAIT + 4, worldId4SessionId: heidiSession.toString() }]);
    expect(both.data.ivy.items).toEqual([{ numOfMints: 2, firstMintedAt: T0 + 4, lastMintedAt: T0 + WAIT + 5, lastReceiver: accounts.ivy.toLowerCase() }]);
    const listed = both.data.all.items.map((item) => toHex(BigInt(item.nullifierHash), { size: 32 }));
    expect(listed).toEqual(expect.arrayContaining([hashOf("alice"), hashOf("heidi"), ivyHuman]));
    expect(new Set(listed).size).toBe(listed.length);

    const query = JSON.stringify({ json: { sql: "select count(*)::int as n from referral_payout", params: [] } });
    const sql = await fetch(`${first.baseUrl}/sql/db?sql=${encodeURIComponent(query)}`);
    expect(sql.status).toBe(200);
    expect(await sql.json()).toMatchObject({ rows: [{ n: 1 }] });
  });
});

describe("indexer against a local chain: reindexing, live indexing and a restarted chain", () => {
  it("gives identical answers after reindexing from scratch into a new data directory", async () => {
    const paths = [
      "/stats",
      ...[accounts.alice, accounts.alice2, accounts.bob, accounts.carol, accounts.dave, accounts.erin].flatMap((address) => [
        `/streaks/${address}`,
        `/streaks/${address}/claims?limit=100`,
        `/streaks/${address}/claims?limit=100&order=oldest`,
        `/referral-payouts/${address}`,
      ]),
      "/mints",
      "/referral-payouts",
      ...[accounts.heidi, accounts.ivy].map((address) => `/world-id/${address}`),
      `/humans/${hashOf("alice")}`,
      `/humans/${hashOf("treasury-0")}`,
      "/referral-payouts/nonces/7",
      "/referral-payouts/nonces?nonces=7,8",
    ];
    const before = await Promise.all(paths.map((p) => first.get<unknown>(p)));
    await first.service.stop();

    second = await startIndexer(chain, lastEventBlock);
    expect(second.pgliteRoot).not.toBe(first.pgliteRoot);
    const after = await Promise.all(paths.map((p) => second.get<unknown>(p)));
    expect(after).toEqual(before);
  });

  it("indexes a new mint live, after the backfill", async () => {
    const receipt = await chainActions(chain).mint("dave", accounts.dave);
    const mintedAt = Number((await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp);
    const streak = await streakOnceIt(second, accounts.dave, (shown) => shown.numOfMints > 0, 30_000);
    expect(streak).toMatchObject({ nullifierHash: hashOf("dave"), currentStreak: 1, numOfMints: 1, lastMintedAt: mintedAt });
  });

  it("reads streaks with the chain's clock, which runs on while no block comes (not the latest block's time)", async () => {
    expect((await second.get<StreakResponse>(`/streaks/${accounts.dave}`)).body).toMatchObject({ currentStreak: 1 });
    // evm_increaseTime alone: the chain's clock passes Dave's window as a quiet spell would, with no new block.
    await chainActions(chain).testClient.increaseTime({ seconds: 2 * WAIT + 10 });
    const streak = await streakOnceIt(second, accounts.dave, (shown) => shown.currentStreak === 0, 10_000);
    expect(streak).toMatchObject({ nullifierHash: hashOf("dave"), currentStreak: 0, longestStreak: 1 });
    await second.service.stop();
  });

  it("does not serve a previous chain's rows after the chain restarts", async () => {
    const restarted = await startChain();
    // Same data root as the first run: the new chain must get its own folder, not the old rows.
    const third = await startIndexer(restarted, Number(await restarted.publicClient.getBlockNumber()), first.pgliteRoot);
    const { body } = await third.get<StreakResponse>(`/streaks/${accounts.alice}`);
    expect(body.numOfMints).toBe(0);
    const stats = await third.get<StatsResponse>("/stats");
    expect(stats.body.mints).toBe(mintsBefore);
    await third.service.stop();
    await restarted.stop();
  });
});
