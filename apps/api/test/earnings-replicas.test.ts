import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { eventually } from "./helpers/indexer.js";
import { acceptCode, newUser, oroEarned, referralCodeOf, type TestUser } from "./helpers/referrals.js";

// Two API processes' worth of apps on one database, as behind Caddy: each caches a user's first earnings page, and
// what changes it in one (an invite activated at the referee's first mint) must not leave the other showing the old
// page until its copy expires. Seen in the production rehearsal: the referrer opened the share screen on the other
// replica and saw no invite.
describe("earnings across API processes", () => {
  const indexer = new FakeIndexer();
  let db: TestDatabase;
  let replicas: [TestApp, TestApp];
  let human = 7_000n;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Copies that would outlive the test: only the other process's message can drop them.
    const env = { EARNINGS_CACHE_TTL: "1h" };
    replicas = [await createTestApp({ testDatabase: db, indexer, env }), await createTestApp({ testDatabase: db, indexer, env })];
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await db.drop();
  });

  it("an invite activated through one process shows at once in the referrer's cached page on the other", async () => {
    const [first, second] = replicas;
    const referrer = await newUser(first.app, "rita");
    indexer.mint(referrer.account.address, ++human, Math.floor(Date.now() / 1000) - 86_400);
    const referee = await newUser(first.app, "ed");
    // The referrer's first page, cached by the second process with no invite in it.
    expect((await oroEarned(second.app, referrer, false)).usersReferred).toEqual([]);

    expect((await acceptCode(first.app, referee, await referralCodeOf(first.app, referrer))).statusCode).toBe(200);
    indexer.mint(referee.account.address, ++human);
    // The referee's own page, read through the first process, activates the referral there.
    expect((await oroEarned(first.app, referee)).rewardForBeingReferee).not.toBeNull();

    // The second process hears of it (LISTEN/NOTIFY) and reads the page again: the referrer sees the invite.
    const page = await eventually(
      () => oroEarned(second.app, referrer, false),
      (answer) => answer.usersReferred.length === 1,
      20_000,
    );
    expect(page.usersReferred[0]).toMatchObject({ username: "ed", hasClaimed: false });
  });

  it("payouts followed by one process drop every beneficiary's cached page in the other", async () => {
    const [first, second] = replicas;
    const referrers: TestUser[] = [];
    for (const name of ["ann", "ben", "cy"]) {
      const referrer = await newUser(first.app, name);
      indexer.mint(referrer.account.address, ++human, Math.floor(Date.now() / 1000) - 86_400);
      const referee = await newUser(first.app, `${name}friend`);
      expect((await acceptCode(first.app, referee, await referralCodeOf(first.app, referrer))).statusCode).toBe(200);
      indexer.mint(referee.account.address, ++human);
      referrers.push(referrer);
    }
    await first.app.services.referrals.followMints(60_000);
    await first.app.services.referrals.followPayouts(60_000);
    // Each referrer's first page, cached by the second process with an open voucher in it.
    const nonces: bigint[] = [];
    for (const referrer of referrers) {
      const [invite] = (await oroEarned(second.app, referrer, false)).usersReferred;
      expect(invite).toMatchObject({ hasClaimed: false });
      nonces.push(BigInt(invite?.claimableSignature?.message.nonce ?? -1));
    }

    // The chain pays all three vouchers; the first process follows the payouts (one page, three beneficiaries).
    referrers.forEach((referrer, i) => indexer.payout(referrer.account.address, nonces[i] ?? -1n, 1n));
    expect(await first.app.services.referrals.followPayouts(60_000)).toMatchObject({ held: true, events: 3 });
    for (const referrer of referrers) {
      const page = await eventually(
        () => oroEarned(second.app, referrer, false),
        (answer) => answer.usersReferred[0]?.hasClaimed === true,
        20_000,
      );
      expect(page.usersReferred[0]).toMatchObject({ hasClaimed: true });
    }
  });
});
