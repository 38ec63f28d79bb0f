import { buildDevProof, DEV_PROFILE, devNullifierHash } from "@oro/clients";
import { getAddress, verifyMessage } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { readStored } from "../src/lib/storage";
import { devFallbackAvailable, getDevWallet } from "../src/lib/world-app/fallback";
import { installDevelopmentWallet, isInWorldApp } from "../src/lib/world-app/install";
import { verifyHuman } from "../src/lib/world-app/verify";
import { walletAuth } from "../src/lib/world-app/wallet-auth";

/** Outside World App in development, the commands fall back to the development wallet (local keys). */
describe("development wallet", () => {
  // What main.tsx does at start-up.
  beforeAll(installDevelopmentWallet);

  it("is used outside World App in a development build on the local chain", () => {
    expect(isInWorldApp()).toBe(false);
    expect(devFallbackAvailable()).toBe(true);
  });

  it("signs in with Hardhat's account #2 by default: a SIWE message whose signature verifies", async () => {
    const result = await walletAuth({ nonce: "abcdefgh1234", statement: "Claim ORO daily on the chain." });
    expect(result.address).toBe(getAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"));
    expect(result.message).toContain("Nonce: abcdefgh1234");
    expect(result.message).toContain("Claim ORO daily on the chain.");
    expect(await verifyMessage({ address: result.address, message: result.message, signature: result.signature })).toBe(true);
  });

  it("switches account, and remembers the choice", async () => {
    const wallet = await getDevWallet("test");
    wallet.selectAccount(5);
    expect(readStored("devAccountIndex")).toBe(5);
    const result = await walletAuth({ nonce: "abcdefgh1234", statement: "x" });
    expect(result.address).toBe(wallet.accounts[5]);
    wallet.selectAccount(2);
  });

  it("verifies with a development proof the mock router accepts (bound to the receiver)", async () => {
    const receiver = getAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
    const result = await verifyHuman(receiver, () => Promise.reject(new Error("no API needed in development")), {
      settings: () => Promise.resolve({ worldId3Closed: false, genesisCutoff: 0, chainNow: 0 }),
      known: () => Promise.resolve(null),
      keep: () => Promise.reject(new Error("a 3.0 proof keeps nothing")),
    });
    const expected = buildDevProof({
      receiver,
      nullifierHash: devNullifierHash(`wallet-${receiver.toLowerCase()}`),
      appId: DEV_PROFILE.worldAppId,
      action: "claim-tokens-action",
    });
    expect(result).toEqual({ version: "3.0", merkleRoot: expected.root, nullifierHash: expected.nullifierHash, proof: expected.proof });
  });
});
