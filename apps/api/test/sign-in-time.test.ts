import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { chainActions, startLocalChain, type LocalChain } from "./helpers/chain.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { fetchNonce, siweMessage } from "./helpers/siwe.js";

// The World App simulator moves the local chain's time (+24 h) and the phone's clock with it, and MiniKit dates
// the sign-in message with the phone's clock: the API must accept it at once, not after its next chain read.
let chain: LocalChain;
let db: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  chain = await startLocalChain();
  db = await createTestDatabase();
  t = await createTestApp({ testDatabase: db, env: { RPC_URL: chain.rpcUrl, CHAIN_ID: "31337", SIWE_DOMAINS: "oro.example" } });
}, 300_000);

afterAll(async () => {
  await t?.close();
  await db?.drop();
  await chain?.stop();
});

async function signInAt(issuedAt: Date) {
  const account = privateKeyToAccount(generatePrivateKey());
  const message = siweMessage({ address: account.address, nonce: await fetchNonce(t.app), chainId: 31337, issuedAt });
  const signature = await account.signMessage({ message });
  return t.app.inject({ method: "POST", url: "/api/auth/siwe", payload: { message, signature, address: account.address } });
}

/** The chain's clock, as a phone that follows it shows it: the time the next block would get. */
async function chainNow(): Promise<Date> {
  const block = await chain.publicClient.getBlock({ blockTag: "pending" });
  return new Date(Number(block.timestamp) * 1000);
}

describe("sign-in right after the chain's time was moved ahead", () => {
  it("accepts a message dated by a phone that follows the chain, the moment the chain moved", async () => {
    // A first sign-in: the API has read the chain's clock just now (its next background read is seconds away).
    expect((await signInAt(await chainNow())).statusCode).toBe(200);
    const { testClient } = chainActions(chain);
    await testClient.increaseTime({ seconds: 86_400 });
    await testClient.mine({ blocks: 1 });

    const response = await signInAt(await chainNow());
    expect(response.statusCode, response.body).toBe(200);
  });

  it("accepts it when no block came since the chain moved: the chain's clock is not its latest block's time", async () => {
    // evm_increaseTime alone moves the chain's clock as a quiet spell without blocks does: the latest block lags.
    const { testClient } = chainActions(chain);
    await testClient.increaseTime({ seconds: 3_600 });
    const phone = await chainNow();
    const latest = Number((await chain.publicClient.getBlock({ blockTag: "latest" })).timestamp) * 1000;
    expect(phone.getTime() - latest).toBeGreaterThan(3_000_000);

    const response = await signInAt(phone);
    expect(response.statusCode, response.body).toBe(200);
  });

  it("still refuses a message dated after the chain's time too", async () => {
    const ahead = new Date((await chainNow()).getTime() + 10 * 60_000);
    const response = await signInAt(ahead);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: "SIWE_ISSUED_AT_INVALID" });
  });
});
