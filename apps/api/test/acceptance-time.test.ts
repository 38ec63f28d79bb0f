import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { startLocalChain, type LocalChain } from "./helpers/chain.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { acceptCode, newUser, oroEarned, referralCodeOf } from "./helpers/referrals.js";

// An invite's acceptance is dated with the chain's clock, and a referee human who minted before it is no new
// referee. On a quiet chain the latest block can be minutes old: dated with it, an acceptance made after a mint
// in that very block would count the mint as after it.
let chain: LocalChain;
let t: TestApp;
const indexer = new FakeIndexer();

beforeAll(async () => {
  chain = await startLocalChain();
  t = await createTestApp({ indexer, env: { RPC_URL: chain.rpcUrl } });
}, 300_000);

afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

describe("an invite accepted after a mint in the latest block, before any new block", () => {
  it("counts that mint as before the acceptance: the human is no new referee", async () => {
    const referrer = await newUser(t.app);
    indexer.mint(referrer.account.address, 71_001n, Math.floor(Date.now() / 1000) - 86_400);
    // The human mints to an old wallet in the latest block; a moment later (no block since) accepts on a fresh one.
    const latest = Number((await chain.publicClient.getBlock({ blockTag: "latest" })).timestamp);
    const human = 71_002n;
    indexer.mint((await newUser(t.app)).account.address, human, latest);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const fresh = await newUser(t.app);
    expect((await acceptCode(t.app, fresh, await referralCodeOf(t.app, referrer))).statusCode).toBe(200);
    const accepted = await t.db.database.prisma.referral.findFirstOrThrow({ where: { referee: { address: fresh.address } } });
    expect(accepted.acceptedAtBlockTime?.getTime()).toBeGreaterThan(latest * 1000);

    indexer.mint(fresh.account.address, human, latest + 600);
    expect((await oroEarned(t.app, fresh)).rewardForBeingReferee).toBeNull();
    const decided = await t.db.database.prisma.referral.findFirstOrThrow({ where: { referee: { address: fresh.address } } });
    expect(decided).toMatchObject({ status: "rejected", rejectionReason: "REFEREE_MINTED_BEFORE_ACCEPTANCE" });
  });
});
