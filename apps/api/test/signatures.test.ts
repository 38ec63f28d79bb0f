import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { chainActions, startLocalChain, type LocalChain } from "./helpers/chain.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { acceptCode, newUser, referralCodeOf, referralNonce, type TestUser } from "./helpers/referrals.js";
import { fetchNonce, siweMessage } from "./helpers/siwe.js";
import { buildReferralMessage } from "@oro/clients";

// Signatures that need the chain: a smart-contract wallet (EIP-1271) and signatures by another key, which
// are only refused after the chain confirms the address has no wallet code.
let chain: LocalChain;
let t: TestApp;
let actions: ReturnType<typeof chainActions>;

beforeAll(async () => {
  chain = await startLocalChain();
  actions = chainActions(chain);
  t = await createTestApp({ indexer: new FakeIndexer(), env: { RPC_URL: chain.rpcUrl } });
});
afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

const newAccount = () => privateKeyToAccount(generatePrivateKey());

async function siwe(address: Address, sign: (message: string) => Promise<`0x${string}`>) {
  const message = siweMessage({ address, nonce: await fetchNonce(t.app) });
  return t.app.inject({ method: "POST", url: "/api/auth/siwe", payload: { message, signature: await sign(message), address } });
}

describe("sign-in signatures on the local chain", () => {
  it("accepts a smart-contract wallet whose owner signed (EIP-1271)", async () => {
    const owner = newAccount();
    const wallet = await actions.deploySmartWallet(owner.address);
    const response = await siwe(wallet, (message) => owner.signMessage({ message }));
    expect(response.statusCode).toBe(200);
    expect(response.json<{ user: { address: string } }>().user.address).toBe(wallet.toLowerCase());
  });

  it("refuses a smart-contract wallet signature by a key that does not own it", async () => {
    const wallet = await actions.deploySmartWallet(newAccount().address);
    const intruder = newAccount();
    const response = await siwe(wallet, (message) => intruder.signMessage({ message }));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: "SIGNATURE_INVALID" });
  });

  it("refuses an EOA sign-in signed by another key", async () => {
    const victim = newAccount();
    const attacker = newAccount();
    const response = await siwe(victim.address, (message) => attacker.signMessage({ message }));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: "SIGNATURE_INVALID" });
    expect(await t.db.database.prisma.user.count({ where: { address: victim.address.toLowerCase() } })).toBe(0);
  });
});

describe("invite signatures on the local chain", () => {
  it("refuses an invite signed by another key or for another code", async () => {
    const referee = await newUser(t.app);
    const code = await referralCodeOf(t.app, await newUser(t.app));
    const byAnotherKey = await acceptCode(t.app, referee, code, { signer: newAccount() });
    expect(byAnotherKey.statusCode).toBe(400);
    expect(byAnotherKey.json()).toMatchObject({ error: "SIGNATURE_INVALID" });
    const otherCode = await acceptCode(t.app, referee, code, { messageCode: "ABCDEFGH" });
    expect(otherCode.json()).toMatchObject({ error: "SIGNATURE_INVALID" });
    const garbage = await acceptCode(t.app, referee, code, { signature: "0x1234" });
    expect(garbage.json()).toMatchObject({ error: "SIGNATURE_INVALID" });
  });

  it("accepts an invite signed through a smart-contract wallet", async () => {
    const owner = newAccount();
    const wallet = await actions.deploySmartWallet(owner.address);
    const response = await siwe(wallet, (message) => owner.signMessage({ message }));
    const referee: TestUser = { account: owner, token: response.json<{ token: string }>().token, address: wallet.toLowerCase() as Address };
    const code = await referralCodeOf(t.app, await newUser(t.app));
    const nonce = await referralNonce(t.app, referee);
    const signature = await owner.signMessage({ message: buildReferralMessage({ referralCode: code, address: wallet, nonce }) });
    const accepted = await acceptCode(t.app, referee, code, { nonce, signature });
    expect(accepted.statusCode).toBe(200);
  });
});
