import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getAddress, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/database.js";
import { createTestApp } from "./helpers/app.js";
import { chainActions, devAccount, startLocalChain, type LocalChain } from "./helpers/chain.js";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "./helpers/database.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { eventually } from "./helpers/indexer.js";
import { freePort, startService, waitForHttpOk } from "@oro/dev-stack";
import { acceptCode, aMinuteAfterAcceptance, newUser, oroEarned, referralCodeOf, type TestUser } from "./helpers/referrals.js";
import { transpileApi, type TranspiledApi } from "../scripts/transpiled-api.js";

// A real crash: the API process is killed with SIGKILL while its payout transaction waits in the mempool,
// then started again. The reward must be paid exactly once and the database must say so.
const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PAYOUT_WALLET = devAccount(2).address;

let chain: LocalChain;
let actions: ReturnType<typeof chainActions>;
let testDb: TestDatabase | undefined;
let dataDir: string | undefined;
let target: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };
const rewardEnv = {
  REFERRAL_REFERRER_PAYMENT: "claimable",
  REFERRAL_REFEREE_PAYMENT: "auto",
  REFERRAL_REFEREE_REWARD: "0.5",
};

let transpiled: TranspiledApi;

beforeAll(async () => {
  transpiled = await transpileApi();
  chain = await startLocalChain();
  actions = chainActions(chain);
  if (testDatabaseKind() === "postgres") {
    testDb = await createTestDatabase();
    target = { kind: "postgres", url: testDb.url ?? "" };
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), "oro-api-crash-"));
    target = { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
  }
});
afterAll(async () => {
  await testDb?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await chain?.stop();
  transpiled?.remove();
});

/** Opens the database the server uses (PGlite: only while no server process holds it). */
async function withDatabase<T>(use: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(target);
  try {
    await database.migrate();
    return await use(database);
  } finally {
    await database.close();
  }
}

async function startServer() {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    API_PORT: String(port),
    RPC_URL: chain.rpcUrl,
    INDEXER_URL: "http://127.0.0.1:9",
    WORKERS_ENABLED: "true",
    PAYOUT_INTERVAL: "100ms",
    ACTIVATION_INTERVAL: "1h",
    PAYOUT_LEASE: "2s",
    LOG_LEVEL: "info",
    ...rewardEnv,
    ...(target.kind === "postgres" ? { DATABASE_URL: target.url } : { PGLITE_DATA_DIR: target.dataDir }),
  };
  // The server as the production image runs it (transpiled JavaScript): no compiling on each of the two starts.
  const service = startService("api", process.execPath, [transpiled.file("src/server.ts")], { cwd: apiRoot, env });
  // Readiness is the signal; the bound only stops a server that never gets there (a loaded machine).
  await waitForHttpOk(`http://127.0.0.1:${port}/api/ready`, 180_000, service);
  return service;
}

// Two server starts, a chain and a database: minutes on a loaded 2-core machine, though 30–40 s alone.
describe(`an API process killed mid-payout (${testDatabaseKind()})`, { timeout: 600_000 }, () => {
  it("pays the auto reward once: the restarted worker finds the nonce used and records it", async () => {
    // A payable referral with an auto reward for the referee, made through the app (then closed).
    let referee: TestUser | undefined;
    await withDatabase(async (database) => {
      const indexer = new FakeIndexer();
      const t = await createTestApp({
        env: { RPC_URL: chain.rpcUrl, ...rewardEnv },
        indexer,
        testDatabase: { database, kind: database.kind, drop: () => Promise.resolve() },
      });
      const referrer = await newUser(t.app);
      // A referrer is paid only when a human has minted to their wallet.
      indexer.mint(referrer.account.address, 4241n, Math.floor(Date.now() / 1000) - 86_400);
      referee = await newUser(t.app);
      await acceptCode(t.app, referee, await referralCodeOf(t.app, referrer));
      indexer.mint(referee.account.address, 4242n, await aMinuteAfterAcceptance(database.prisma, referee));
      // Decided as the worker decides it: a read decides it too, but only within the request's 3 s for the indexer,
      // which a loaded machine can use up (CI's read answered before the referral was decided).
      expect(await t.app.services.referrals.activateDue(10)).toEqual({ checked: 1, payable: 1 });
      expect((await oroEarned(t.app, referee)).rewardForBeingReferee?.paymentType).toBe("auto");
      await t.app.close();
    });
    if (!referee) throw new Error("no referee");
    const refereeAddress = getAddress(referee.address);
    const nonceBefore = await chain.publicClient.getTransactionCount({ address: PAYOUT_WALLET });

    // Blocks stop being mined: the payout will sit in the mempool while the worker waits for it.
    await actions.testClient.setAutomine(false);
    const first = await startServer();
    await eventually(
      () => chain.publicClient.getTransactionCount({ address: PAYOUT_WALLET, blockTag: "pending" }),
      (pending) => pending === nonceBefore + 1,
      120_000,
    );
    process.kill(-(first.child.pid ?? 0), "SIGKILL");
    await first.stop(); // already dead: this only waits for the exit
    await actions.testClient.mine({ blocks: 1 });
    await actions.testClient.setAutomine(true);
    expect(await actions.balanceOf(refereeAddress)).toBe(parseUnits("0.5", 18));

    // The restarted process takes the job over when the dead one's lease ends, and sends nothing new.
    const second = await startServer();
    try {
      await second.waitForOutput("auto referral reward paid", 120_000);
    } finally {
      await second.stop();
    }
    expect(await chain.publicClient.getTransactionCount({ address: PAYOUT_WALLET })).toBe(nonceBefore + 1);
    expect(await actions.balanceOf(refereeAddress)).toBe(parseUnits("0.5", 18));
    const reward = await withDatabase((db) => db.prisma.referralReward.findFirstOrThrow({ where: { paymentType: "auto" } }));
    expect(reward.status).toBe("paid");
    expect(reward.claimedAt).not.toBeNull();
  });
});
