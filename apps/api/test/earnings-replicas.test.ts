import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { eventually } from "./helpers/indexer.js";
import { acceptCode, newUser, oroEarned, referralCodeOf } from "./helpers/referrals.js";

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
});
