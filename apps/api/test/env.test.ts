import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CHAIN_IDS, CLAIM_ACTION, deployments } from "@oro/clients";
import { parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { ConfigError, DEVELOPMENT_DEFAULTS, loadConfig, parseDuration } from "../src/env.js";

const productionBase = {
  NODE_ENV: "production",
  DATABASE_URL: "postgresql://oro@db/oro",
  CORS_ORIGINS: "https://app.oro.example",
  SIWE_DOMAINS: "app.oro.example",
  CHAIN_ID: "31337",
  RPC_URL: "https://rpc.example",
  INDEXER_URL: "https://indexer.example",
  CLAIM_SIGNER_PRIVATE_KEY: `0x${"11".repeat(32)}`,
  REFERRAL_REFERRER_REWARD: "2",
  REFERRAL_REFERRER_PAYMENT: "claimable",
  REFERRAL_REFEREE_REWARD: "1",
  REFERRAL_REFEREE_PAYMENT: "claimable",
  NOTIFICATIONS_TRANSPORT: "world-app",
  WORLD_APP_ID: "app_0123456789abcdef",
  WORLD_APP_API_KEY: "api_key_from_the_portal",
  PRICE_PROVIDER: "http",
  PRICE_API_URL: "https://prices.example/api/v3",
  WORLD_ID_RP_ID: "rp_0123456789abcdef",
  WORLD_ID_SIGNING_KEY: `0x${"33".repeat(32)}`,
  PUBLIC_ORIGIN: "https://app.oro.example",
};

describe("configuration: the development profile and production", () => {
  it("uses the explicit development profile outside production", () => {
    const config = loadConfig({});
    expect(config.nodeEnv).toBe("development");
    expect(config.database).toMatchObject({ kind: "pglite" });
    expect(config.chain.id).toBe(31337);
    expect(config.claimSignerKey).toBe(DEVELOPMENT_DEFAULTS.CLAIM_SIGNER_PRIVATE_KEY);
    expect(config.referral.referrer).toEqual({ amountWei: parseUnits("1", 18), paymentType: "claimable" });
    expect(config.corsOrigins).toEqual(["http://localhost:5173", "http://127.0.0.1:5173"]);
  });

  it("finds the local chain where the contracts package starts it", () => {
    expect(loadConfig({}).chain.rpcUrl).toBe("http://127.0.0.1:8545");
    expect(loadConfig({ CHAIN_PORT: "9545" }).chain.rpcUrl).toBe("http://127.0.0.1:9545");
    expect(loadConfig({ LOCAL_RPC_URL: "http://10.0.0.2:8545", CHAIN_PORT: "9545" }).chain.rpcUrl).toBe("http://10.0.0.2:8545");
    expect(loadConfig({ RPC_URL: "http://127.0.0.1:7545", CHAIN_PORT: "9545" }).chain.rpcUrl).toBe("http://127.0.0.1:7545");
  });

  it("never uses development defaults in production: startup fails listing everything missing", () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: "production" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of [
      "CORS_ORIGINS",
      "CHAIN_ID",
      "RPC_URL",
      "INDEXER_URL",
      "CLAIM_SIGNER_PRIVATE_KEY",
      "REFERRAL_REFERRER_REWARD",
      "REFERRAL_REFEREE_PAYMENT",
      "DATABASE_URL",
      "NOTIFICATIONS_TRANSPORT",
      "WORLD_APP_ID",
      "PRICE_PROVIDER",
      "WORLD_ID_RP_ID",
      "WORLD_ID_SIGNING_KEY",
      "SIWE_DOMAINS",
      "PUBLIC_ORIGIN",
    ]) {
      expect(message).toContain(name);
    }
  });

  it("refuses production without a public origin, in one line naming it, and an origin that is not http(s)", () => {
    const { PUBLIC_ORIGIN: _unset, ...withoutOrigin } = productionBase;
    expect(() => loadConfig(withoutOrigin)).toThrow(new ConfigError("NODE_ENV=production needs these settings, which have development defaults only: PUBLIC_ORIGIN"));
    expect(() => loadConfig({ ...productionBase, PUBLIC_ORIGIN: "javascript://oro.example" })).toThrow(/PUBLIC_ORIGIN: must be an http:\/\/ or https:\/\/ origin/);
    expect(loadConfig({ ...productionBase, PUBLIC_ORIGIN: "https://oro.example/some/path?x" }).publicOrigin).toBe("https://oro.example");
  });

  it("accepts a complete production configuration, and asks for the payout wallet only with auto rewards", () => {
    const config = loadConfig(productionBase);
    expect(config.isProduction).toBe(true);
    expect(config.session.secure).toBe(true);
    expect(config.referral.referrer.amountWei).toBe(parseUnits("2", 18));
    expect(() => loadConfig({ ...productionBase, REFERRAL_REFEREE_PAYMENT: "auto" })).toThrow(/PAYOUT_WALLET_PRIVATE_KEY/);
    expect(loadConfig({ ...productionBase, REFERRAL_REFEREE_PAYMENT: "auto", PAYOUT_WALLET_PRIVATE_KEY: `0x${"22".repeat(32)}` }).payoutWalletKey).toBe(
      `0x${"22".repeat(32)}`,
    );
  });

  it("accepts sign-in on the development chain in production only for a rehearsal, which any other chain refuses", () => {
    expect(loadConfig(productionBase).siwe.chainIds).toEqual([CHAIN_IDS.worldChain]);
    const rehearsal = loadConfig({ ...productionBase, ORO_REHEARSAL: "true" });
    expect(rehearsal.rehearsal).toBe(true);
    expect(rehearsal.siwe.chainIds).toEqual([CHAIN_IDS.worldChain, CHAIN_IDS.development]);
    expect(() => loadConfig({ ...productionBase, CHAIN_ID: String(CHAIN_IDS.worldChain), ORO_REHEARSAL: "true" })).toThrow(
      /ORO_REHEARSAL=true is for a rehearsal on the development chain \(CHAIN_ID=31337\) only, refused with CHAIN_ID=480/,
    );
    const worldChain = { ...productionBase, CHAIN_ID: String(CHAIN_IDS.worldChain), CLAIM_CONTRACT_ADDRESS: `0x${"44".repeat(20)}` };
    expect(loadConfig(worldChain).rehearsal).toBe(false);
  });

  it("asks for the portal key and the price source only when they are used", () => {
    const config = loadConfig(productionBase);
    expect(config.notifications).toMatchObject({ transport: "world-app", appId: "app_0123456789abcdef", apiUrl: "https://developer.worldcoin.org" });
    expect(config.prices).toMatchObject({ provider: "http", cacheTtlMs: 60_000 });
    expect(config.worldId.action).toBe("claim-tokens-action");
    expect(() => loadConfig({ ...productionBase, WORLD_APP_API_KEY: "" })).toThrow(/WORLD_APP_API_KEY/);
    expect(() => loadConfig({ ...productionBase, PRICE_API_URL: "" })).toThrow(/PRICE_API_URL/);
    expect(loadConfig({ ...productionBase, NOTIFICATIONS_TRANSPORT: "outbox", WORLD_APP_API_KEY: "" }).notifications.transport).toBe("outbox");
  });
});

describe("configuration: settings and their values", () => {
  it("keeps streaks in the database table on PostgreSQL and in process on PGlite, unless told", () => {
    expect(loadConfig({}).streakCache.store).toBe("memory");
    expect(loadConfig({ DATABASE_URL: "postgresql://oro@db/oro" }).streakCache.store).toBe("database");
    expect(loadConfig({ DATABASE_URL: "postgresql://oro@db/oro", STREAK_CACHE: "memory" }).streakCache.store).toBe("memory");
    expect(loadConfig({ COUNTRY_HEADER: "CF-IPCountry" }).countryHeader).toBe("cf-ipcountry");
    expect(() => loadConfig({ COUNTRY_HEADER: "a header" })).toThrow(/COUNTRY_HEADER/);
  });

  it("sizes each process's PostgreSQL pool by DATABASE_POOL_SIZE (10 unless told)", () => {
    expect(loadConfig({ DATABASE_URL: "postgresql://oro@db/oro" }).database).toEqual({ kind: "postgres", url: "postgresql://oro@db/oro", poolSize: 10, connectTimeoutMs: 3_000 });
    expect(loadConfig({ DATABASE_URL: "postgresql://oro@db/oro", DATABASE_POOL_SIZE: "40" }).database).toMatchObject({ poolSize: 40 });
    expect(() => loadConfig({ DATABASE_URL: "postgresql://oro@db/oro", DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it("gives a stopping process time to hear World's answers when it sends reminders (WORLD_APP_TIMEOUT + 15 s), 15 s otherwise", () => {
    expect(loadConfig(productionBase).shutdownGraceMs).toBe(255_000);
    expect(loadConfig({ ...productionBase, WORLD_APP_TIMEOUT: "60s" }).shutdownGraceMs).toBe(75_000);
    expect(loadConfig({ ...productionBase, WORKERS_ENABLED: "false" }).shutdownGraceMs).toBe(15_000);
    expect(loadConfig({}).shutdownGraceMs).toBe(15_000);
    expect(loadConfig({ ...productionBase, SHUTDOWN_GRACE: "30s" }).shutdownGraceMs).toBe(30_000);
  });

  it("takes World ID 4.0's enrolment action from the chain's deployment record, unless WORLD_ID_ENROLMENT_ACTION says", () => {
    expect(loadConfig({}).worldId).toMatchObject({ action: CLAIM_ACTION, enrolmentAction: deployments[CHAIN_IDS.development].worldId.enrolmentAction });
    expect(loadConfig({ WORLD_ID_ENROLMENT_ACTION: "oro-enrolment-2" }).worldId.enrolmentAction).toBe("oro-enrolment-2");
  });

  it("reads each secret from a file (a Docker secret) named by <NAME>_FILE, never from both, and names a file it cannot read", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "oro-api-secrets-"));
    const secret = (name: string, text: string) => {
      writeFileSync(path.join(folder, name), text);
      return path.join(folder, name);
    };
    const { CLAIM_SIGNER_PRIVATE_KEY: _key, DATABASE_URL: _url, ...rest } = productionBase;
    const fromFiles = {
      ...rest,
      CLAIM_SIGNER_PRIVATE_KEY_FILE: secret("claim_signer_key", `0x${"11".repeat(32)}\n`),
      DATABASE_URL_FILE: secret("database_url", "postgresql://oro:s3cret@db/oro\n"),
      RATE_LIMIT_REDIS_URL_FILE: secret("redis_url", "redis://:s3cret@redis:6379"),
      // An optional secret left empty (no auto payouts) counts as unset.
      PAYOUT_WALLET_PRIVATE_KEY_FILE: secret("payout_wallet_key", ""),
    };
    const config = loadConfig(fromFiles);
    expect(config.claimSignerKey).toBe(`0x${"11".repeat(32)}`);
    expect(config.database).toMatchObject({ kind: "postgres", url: "postgresql://oro:s3cret@db/oro" });
    expect(config.rateLimit.redisUrl).toBe("redis://:s3cret@redis:6379");
    expect(config.payoutWalletKey).toBeUndefined();
    expect(() => loadConfig({ ...fromFiles, DATABASE_URL: "postgresql://oro@db/oro" })).toThrow(new ConfigError("DATABASE_URL and DATABASE_URL_FILE are both set: set one"));
    expect(() => loadConfig({ ...fromFiles, WORLD_ID_SIGNING_KEY: undefined, WORLD_ID_SIGNING_KEY_FILE: path.join(folder, "missing") }))
      .toThrow(new ConfigError(`WORLD_ID_SIGNING_KEY_FILE: cannot read ${path.join(folder, "missing")} (ENOENT)`));
    expect(() => loadConfig({ ...fromFiles, CLAIM_SIGNER_PRIVATE_KEY_FILE: secret("empty", "") })).toThrow(/needs these settings.*CLAIM_SIGNER_PRIVATE_KEY/);
  });

  it("applies migrations at start, waits for the release step's, or neither (MIGRATE_ON_START)", () => {
    expect(loadConfig({}).migrations).toEqual({ onStart: "apply", waitMs: 600_000 });
    expect(loadConfig({ MIGRATE_ON_START: "wait", MIGRATION_WAIT: "2m" }).migrations).toEqual({ onStart: "wait", waitMs: 120_000 });
    expect(loadConfig({ MIGRATE_ON_START: "false" }).migrations.onStart).toBe("skip");
    expect(() => loadConfig({ MIGRATE_ON_START: "later" })).toThrow(/MIGRATE_ON_START/);
  });

  it("refuses malformed values with the variable's name", () => {
    expect(() => loadConfig({ API_PORT: "http" })).toThrow(/API_PORT/);
    expect(() => loadConfig({ CLAIM_SIGNER_PRIVATE_KEY: "0x12" })).toThrow(/CLAIM_SIGNER_PRIVATE_KEY/);
    expect(() => loadConfig({ REFERRAL_REFERRER_REWARD: "1,5" })).toThrow(/REFERRAL_REFERRER_REWARD/);
    expect(() => loadConfig({ REFERRAL_REFEREE_PAYMENT: "cash" })).toThrow(/REFERRAL_REFEREE_PAYMENT/);
    expect(() => loadConfig({ NONCE_TTL: "soon" })).toThrow(/NONCE_TTL/);
    expect(() => loadConfig({ CHAIN_ID: "480" })).toThrow(/CLAIM_CONTRACT_ADDRESS/);
  });

  it("parses durations", () => {
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("5m")).toBe(300_000);
    expect(parseDuration("24h")).toBe(86_400_000);
    expect(parseDuration("2d")).toBe(172_800_000);
    expect(parseDuration("1500")).toBe(1_500);
    expect(() => parseDuration("-1s")).toThrow();
  });
});
