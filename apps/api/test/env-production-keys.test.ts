import { describe, expect, it } from "vitest";
import { DEV_PRIVATE_KEYS } from "@oro/clients";
import { ConfigError, loadConfig, PRODUCTION_REQUIRED } from "../src/env.js";

// Production refuses keys anyone can sign with, and one key holding both the voucher and the payout powers.
const production = {
  NODE_ENV: "production",
  DATABASE_URL: "postgresql://oro@db/oro",
  CORS_ORIGINS: "https://app.oro.example",
  SIWE_DOMAINS: "app.oro.example",
  CHAIN_ID: "31337",
  RPC_URL: "https://rpc.example",
  INDEXER_URL: "https://indexer.example",
  CLAIM_SIGNER_PRIVATE_KEY: `0x${"11".repeat(32)}`,
  PAYOUT_WALLET_PRIVATE_KEY: `0x${"22".repeat(32)}`,
  REFERRAL_REFERRER_REWARD: "1",
  REFERRAL_REFERRER_PAYMENT: "auto",
  REFERRAL_REFEREE_REWARD: "0.5",
  REFERRAL_REFEREE_PAYMENT: "claimable",
  NOTIFICATIONS_TRANSPORT: "outbox",
  WORLD_APP_ID: "app_0123456789abcdef",
  PRICE_PROVIDER: "development",
  WORLD_ID_RP_ID: "rp_0123456789abcdef",
  WORLD_ID_SIGNING_KEY: `0x${"33".repeat(32)}`,
  PUBLIC_ORIGIN: "https://app.oro.example",
};
/** Hardhat account #0 and #19: public, like the development profile's own keys. */
const HARDHAT_OWNER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const HARDHAT_LAST_KEY = "0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e";

describe("production keys", () => {
  it("accepts keys of its own", () => {
    expect(loadConfig(production).isProduction).toBe(true);
  });

  it.each([
    ["CLAIM_SIGNER_PRIVATE_KEY", DEV_PRIVATE_KEYS.claimSigner],
    ["PAYOUT_WALLET_PRIVATE_KEY", DEV_PRIVATE_KEYS.payoutWallet],
    ["WORLD_ID_SIGNING_KEY", DEV_PRIVATE_KEYS.worldIdSigner],
    ["CLAIM_SIGNER_PRIVATE_KEY", HARDHAT_OWNER_KEY],
    ["PAYOUT_WALLET_PRIVATE_KEY", HARDHAT_LAST_KEY],
  ])("refuses %s set to a Hardhat development key", (name, key) => {
    expect(() => loadConfig({ ...production, [name]: key })).toThrow(
      new ConfigError(`NODE_ENV=production refuses Hardhat's public development keys in ${name}`),
    );
  });

  it("refuses a payout wallet that is the voucher signer", () => {
    expect(() => loadConfig({ ...production, PAYOUT_WALLET_PRIVATE_KEY: production.CLAIM_SIGNER_PRIVATE_KEY })).toThrow(
      /payout wallet apart from the voucher signer/,
    );
  });

  it("development still runs on the public keys", () => {
    expect(loadConfig({}).claimSignerKey).toBe(DEV_PRIVATE_KEYS.claimSigner);
  });

  it("lists what production must set, and names each one missing", () => {
    expect(PRODUCTION_REQUIRED).toEqual(expect.arrayContaining(["DATABASE_URL", "CLAIM_SIGNER_PRIVATE_KEY", "RPC_URL", "WORLD_ID_SIGNING_KEY"]));
    expect(PRODUCTION_REQUIRED).not.toContain("PAYOUT_WALLET_PRIVATE_KEY");
    for (const name of PRODUCTION_REQUIRED) {
      expect(() => loadConfig({ ...production, [name]: "" }), name).toThrow(new RegExp(`needs these settings.*${name}`));
    }
  });
});
