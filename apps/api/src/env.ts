import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addresses, CHAIN_IDS, CLAIM_ACTION, DEV_PRIVATE_KEYS, DEV_PROFILE, devServiceUrl, ENROLMENT_ACTION, deployments } from "@oro/clients";
import { getAddress, isAddress, isHex, parseUnits, type Address, type Hex } from "viem";
import { mnemonicToAccount, privateKeyToAddress } from "viem/accounts";
import { z } from "zod";
import { PaymentType } from "./generated/prisma/enums.js";

/**
 * The API's configuration: read from the environment here and nowhere else.
 *
 * Values fall into three groups:
 * - plain settings with a sensible default everywhere (port, TTLs, limits);
 * - DEVELOPMENT_DEFAULTS: the local stack (embedded database, local chain, Hardhat's public keys). They are
 *   used only when NODE_ENV is not "production"; in production each must be set, and startup fails with
 *   one message that lists every missing name;
 * - optional settings without a default.
 */

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");


/** The explicit development profile. None of these is ever used when NODE_ENV=production. */
export const DEVELOPMENT_DEFAULTS = {
  CORS_ORIGINS: `http://localhost:${DEV_PROFILE.ports.web},${devServiceUrl("web")}`,
  CHAIN_ID: String(DEV_PROFILE.chainId),
  RPC_URL: devServiceUrl("chain"),
  INDEXER_URL: devServiceUrl("indexer"),
  /** Hardhat account #1: the voucher signer the local chain's ReferralClaim trusts. */
  CLAIM_SIGNER_PRIVATE_KEY: DEV_PRIVATE_KEYS.claimSigner,
  /** Hardhat account #2: pays gas for `auto` referral rewards on the local chain. */
  PAYOUT_WALLET_PRIVATE_KEY: DEV_PRIVATE_KEYS.payoutWallet,
  REFERRAL_REFERRER_REWARD: "1",
  REFERRAL_REFERRER_PAYMENT: "claimable",
  REFERRAL_REFEREE_REWARD: "0.5",
  REFERRAL_REFEREE_PAYMENT: "claimable",
  /** Reminders go to the outbox table and the log instead of World App. */
  NOTIFICATIONS_TRANSPORT: "outbox",
  /** The World ID app id of the local deployment (deep links of development reminders point at it). */
  WORLD_APP_ID: DEV_PROFILE.worldAppId,
  /** Deterministic prices for the known tokens of the chain. */
  PRICE_PROVIDER: "development",
  WORLD_ID_RP_ID: DEV_PROFILE.worldIdRpId,
  WORLD_ID_SIGNING_KEY: DEV_PRIVATE_KEYS.worldIdSigner,
  /** The web app's origin (the dev stack passes the one it serves on): the invite preview's absolute links. */
  PUBLIC_ORIGIN: devServiceUrl("web"),
} as const;

type DevelopmentSetting = keyof typeof DEVELOPMENT_DEFAULTS;

/**
 * What NODE_ENV=production must set: every development default (the payout wallet only with `auto` rewards)
 * and the database. The deployment's compose test checks that production provides each of these.
 */
export const PRODUCTION_REQUIRED: readonly string[] = [
  ...(Object.keys(DEVELOPMENT_DEFAULTS) as DevelopmentSetting[]).filter((key) => key !== "PAYOUT_WALLET_PRIVATE_KEY"),
  "DATABASE_URL",
  "SIWE_DOMAINS",
];

let hardhatAddresses: ReadonlySet<Address> | undefined;

/** Whether `key` is one of Hardhat's public development keys (anyone can sign with them). */
function isHardhatKey(key: Hex): boolean {
  hardhatAddresses ??= new Set(
    Array.from({ length: 20 }, (_, addressIndex) => mnemonicToAccount(DEV_PROFILE.mnemonic, { addressIndex }).address),
  );
  return hardhatAddresses.has(privateKeyToAddress(key));
}

const durationUnits = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "250ms", "30s", "5m", "24h", "30d" or a bare number of milliseconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match?.[1]) throw new Error(`"${value}" is not a duration like 30s, 5m, 24h or 30d`);
  const unit = (match[2] ?? "ms") as keyof typeof durationUnits;
  return Number(match[1]) * durationUnits[unit];
}

const duration = z.string().transform((value, ctx) => {
  try {
    return parseDuration(value);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: (error as Error).message });
    return z.NEVER;
  }
});

const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const booleanString = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

const privateKey = z.string().refine((value): value is Hex => isHex(value) && value.length === 66, {
  message: "must be a 0x-prefixed 32-byte hex private key",
});

const address = z.string().refine((value) => isAddress(value), { message: "must be a 0x-prefixed 20-byte address" })
  .transform((value) => getAddress(value));

const oroAmount = z.string().transform((value, ctx) => {
  if (!/^\d+(\.\d{1,18})?$/.test(value)) {
    ctx.addIssue({ code: "custom", message: "must be a decimal ORO amount such as 1 or 0.5" });
    return z.NEVER;
  }
  return parseUnits(value, 18);
});

const paymentType = z.enum(PaymentType);

const url = z.url();

/** A header name as Node presents it (lower case). */
const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, { message: "must be an HTTP header name" }).transform((value) => value.toLowerCase());

const usdAmount = z.string().regex(/^\d+(\.\d{1,6})?$/, { message: "must be a decimal USD amount such as 5 or 4.99" }).transform(Number);

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  API_HOST: z.string().default("127.0.0.1"),
  API_PORT: integer(0, 65_535).default(DEV_PROFILE.ports.api),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Prometheus metrics on a port of their own (never forwarded by Caddy); unset: not served. */
  METRICS_PORT: integer(1, 65_535).optional(),
  METRICS_HOST: z.string().default("127.0.0.1"),
  /** Number of proxy hops to trust for the client IP (rate limits, logs); 0 trusts none. */
  TRUST_PROXY_HOPS: integer(0, 10).default(0),

  DATABASE_URL: z.string().optional(),
  /** Connections each process opens to PostgreSQL at most (Prisma and the hot statements share them). */
  DATABASE_POOL_SIZE: integer(1, 500).default(10),
  /** How long a request waits for a database connection (a free one or a new one) before it answers 503. */
  DATABASE_CONNECT_TIMEOUT: duration.default(3_000),
  PGLITE_DATA_DIR: z.string().default(path.join(appRoot, ".data", "pglite")),
  /**
   * true: apply the migrations at start (under an advisory lock); wait: a release step applies them (the compose
   * file's `migrate` service), and the process waits until every migration it carries is applied, up to
   * MIGRATION_WAIT; false: neither.
   */
  MIGRATE_ON_START: z.enum(["true", "false", "1", "0", "wait"]).default("true")
    .transform((value) => (value === "wait" ? "wait" : value === "true" || value === "1" ? "apply" : "skip")),
  MIGRATION_WAIT: duration.default(600_000),
  /** How old the database check behind GET /api/ready may be (one check per interval, shared by every caller). */
  READY_CHECK_INTERVAL: duration.default(1_000),
  /** A database check that has not answered by then makes GET /api/ready answer 503 (Docker's healthcheck waits 5 s). */
  READY_CHECK_TIMEOUT: duration.default(2_000),

  CORS_ORIGINS: z.string().transform((value) => value.split(",").map((origin) => origin.trim()).filter(Boolean)),

  /** Sized for carrier-grade NAT: thousands of phones can share one address; abuse is held by the per-address budget. */
  RATE_LIMIT_PER_IP: integer(1, 1_000_000).default(6_000),
  RATE_LIMIT_PER_ADDRESS: integer(1, 1_000_000).default(60),
  RATE_LIMIT_WINDOW: duration.default(60_000),
  /**
   * Requests per client IP and window whose session token was looked up and refused (unknown or expired): past it,
   * a token this process does not hold is refused (429) before any database lookup until the window ends.
   */
  RATE_LIMIT_SESSION_REFUSALS_PER_IP: integer(1, 1_000_000).default(120),
  /** GET /api/ready's own budget per client IP and window: health checkers ask a few times a second at most. */
  RATE_LIMIT_READY_PER_IP: integer(1, 1_000_000).default(600),
  /**
   * A Redis (or Valkey) that every replica counts in, so N replicas allow one budget, not N. Unset: each process
   * counts alone (the embedded default of `pnpm start`).
   */
  RATE_LIMIT_REDIS_URL: z.string().regex(/^rediss?:\/\//, { message: "must be a redis:// or rediss:// URL" }).optional(),
  /** How long a count in that Redis may take before the request is let through uncounted (a slow store never slows the API). */
  RATE_LIMIT_REDIS_TIMEOUT: duration.default(250),

  SESSION_TTL: duration.default(30 * 86_400_000),
  SESSION_COOKIE_NAME: z.string().regex(/^[\w-]+$/).default("oro_session"),
  /** The mini app and the API usually live on different sites inside the wallet's web view: "none" then. */
  SESSION_COOKIE_SAMESITE: z.enum(["lax", "strict", "none"]).default("lax"),
  NONCE_TTL: duration.default(5 * 60_000),
  /** How long a process reuses a session it looked up (a sign-out reaches every process at once); 0 disables. */
  SESSION_CACHE_TTL: duration.default(30_000),
  /**
   * The domains (host[:port]) whose sign-in messages are ours, comma-separated: a message's domain must be one
   * of them and its URI on the same host. Required in production; elsewhere the hosts of CORS_ORIGINS.
   */
  SIWE_DOMAINS: z.string().transform((value) => value.split(",").map((d) => d.trim()).filter(Boolean)).pipe(z.array(z.string()).min(1)),

  CHAIN_ID: integer(1, 2 ** 31),
  RPC_URL: url,
  /** Defaults to the ReferralClaim deployment of CHAIN_ID in @oro/clients. */
  CLAIM_CONTRACT_ADDRESS: address.optional(),
  INDEXER_URL: url,
  INDEXER_TIMEOUT: duration.default(3_000),

  CLAIM_SIGNER_PRIVATE_KEY: privateKey,
  PAYOUT_WALLET_PRIVATE_KEY: privateKey.optional(),

  REFERRAL_REFERRER_REWARD: oroAmount,
  REFERRAL_REFERRER_PAYMENT: paymentType,
  REFERRAL_REFEREE_REWARD: oroAmount,
  REFERRAL_REFEREE_PAYMENT: paymentType,
  EARNINGS_CACHE_TTL: duration.default(30_000),
  /**
   * How long an accepted referral may wait for its referee's first mint (and a verified referrer). Past it, the
   * referral gets one last check against the indexer and is then refused (PENDING_EXPIRED) unless the referee's
   * human minted in time, so that the activation worker's work is bounded: a referral made from a wallet that
   * never mints is no longer re-checked for ever.
   */
  REFERRAL_PENDING_TTL: duration.default(30 * 86_400_000),

  WORKERS_ENABLED: booleanString.default(true),
  /** How often the sweep of pending referrals runs (the mints followed decide most of them as the mint is indexed). */
  ACTIVATION_INTERVAL: duration.default(15_000),
  /**
   * How long the sweep leaves a pending referral before checking it against the indexer again. The mints followed in
   * chain order decide a referral as soon as the mint it waits for is indexed; the sweep is for what they cannot see:
   * an allow-listed referee who had minted before, a mint a reorganisation moved, the end of REFERRAL_PENDING_TTL.
   */
  ACTIVATION_RECHECK: duration.default(6 * 3_600_000),
  /** How often the followers of the indexer's mints and payouts ask for what came since (CHAIN_FOLLOW_*). */
  CHAIN_FOLLOW_INTERVAL: duration.default(1_000),
  PAYOUT_INTERVAL: duration.default(5_000),
  /** How long a payout job stays reserved by one worker before another may take it over. */
  PAYOUT_LEASE: duration.default(120_000),
  PAYOUT_MAX_BACKOFF: duration.default(600_000),
  PAYOUT_CONFIRMATIONS: integer(1, 100).default(1),

  /** Where streak answers are cached: `auto` is the database table on PostgreSQL and in-process on PGlite. */
  STREAK_CACHE: z.enum(["auto", "memory", "database"]).default("auto"),
  /** How long a cached streak answer is served without asking the indexer. */
  STREAK_CACHE_TTL: duration.default(60_000),
  /** How long an answer is kept to be served (flagged stale) while the indexer is down. */
  STREAK_CACHE_MAX_AGE: duration.default(7 * 86_400_000),
  /** In front of the shared table, each process keeps answers this long (changes are broadcast to all). */
  STREAK_CACHE_LOCAL_TTL: duration.default(10_000),

  /** The country header set by the trusted proxy in front (e.g. cf-ipcountry); unset: nobody is in the US. */
  COUNTRY_HEADER: headerName.optional(),
  SWAP_REWARD_MIN_VOLUME_USD: usdAmount.default(5),

  NOTIFICATIONS_TRANSPORT: z.enum(["world-app", "outbox"]),
  WORLD_APP_ID: z.string().regex(/^app_[A-Za-z0-9_]+$/, { message: "must be a World app id (app_...)" }),
  /** The developer portal's API key of the app (Authorization: Bearer ...); needed by the world-app transport. */
  WORLD_APP_API_KEY: z.string().min(1).optional(),
  WORLD_APP_API_URL: url.default("https://developer.worldcoin.org"),
  /**
   * How long a send-notification request may wait for its answer. World retries its own upstream send up to 10 times
   * (5 s each, 0.3 s backoff doubling: up to ~203 s) before it answers; a request given up sooner may still be
   * delivered, or refused with nothing sent, and either way its reminders end failed (never sent again: at most once).
   */
  WORLD_APP_TIMEOUT: duration.default(240_000),
  /**
   * How long a stopping process (SIGTERM) may take before it exits anyway. Unset: 15 s, or WORLD_APP_TIMEOUT + 15 s
   * when this process sends reminders to World, so that a request World is still retrying is answered, not abandoned
   * (the orchestrator's grace period, compose's stop_grace_period, must be longer).
   */
  SHUTDOWN_GRACE: duration.optional(),
  /** Where a reminder opens the mini app. */
  NOTIFICATION_MINI_APP_PATH: z.string().startsWith("/").default("/"),
  NOTIFICATION_INTERVAL: duration.default(5_000),
  NOTIFICATION_LEASE: duration.default(60_000),
  NOTIFICATION_MAX_ATTEMPTS: integer(1, 50).default(5),
  /** Requests to World a replica has out at once (reminders/runOnce): one that World is still retrying holds only its lane. */
  NOTIFICATION_CONCURRENCY: integer(1, 32).default(8),
  /** How long a finished reminder (sent, not delivered, failed, abandoned, cancelled) is kept before it is purged. */
  NOTIFICATION_RETENTION: duration.default(7 * 86_400_000),
  /** The streak-at-risk nudge comes this long before a streak would lapse (its human has not claimed by then). */
  STREAK_AT_RISK_WINDOW: duration.default(4 * 3_600_000),
  /**
   * The app's per-day setting in World's developer portal (0, 1, 2 or unlimited notifications per user per day):
   * the reminders of every kind together never exceed it for one address in one UTC day.
   */
  NOTIFICATIONS_PER_USER_PER_DAY: z.enum(["0", "1", "2", "unlimited"]).default("1")
    .transform((value) => (value === "unlimited" ? null : Number(value))),
  /**
   * Whether World holds the app verified. Not verified, World refuses a whole request that would take its 4-hour
   * window past 40 notifications: `false` keeps every batch within that; `auto` sends as verified until World refuses
   * so, then keeps within it for a window; `true` never holds back (a refusal still teaches it).
   */
  WORLD_APP_VERIFIED: z.enum(["true", "false", "auto"]).default("auto")
    .transform((value) => (value === "auto" ? ("auto" as const) : value === "true")),
  /** After World refuses reminders (a key disabled, notifications off, the app unknown): how long until one is tried again. */
  NOTIFICATION_REFUSAL_PAUSE: duration.default(15 * 60_000),

  /**
   * The origin the mini app is served from (https://oro.example): the invite preview's absolute links (og:url,
   * og:image). Never the request's Host: the preview is cached publicly, and a forged Host would poison the caches.
   */
  PUBLIC_ORIGIN: url
    .refine((value) => /^https?:$/.test(new URL(value).protocol), { message: "must be an http:// or https:// origin such as https://oro.example" })
    .transform((value) => new URL(value).origin),

  PRICE_PROVIDER: z.enum(["http", "development"]),
  /** A CoinGecko-compatible `simple/token_price` API: base URL, platform id, optional key and its header. */
  PRICE_API_URL: url.optional(),
  PRICE_API_PLATFORM: z.string().regex(/^[a-z0-9-]+$/).default("world-chain"),
  PRICE_API_KEY: z.string().min(1).optional(),
  PRICE_API_KEY_HEADER: headerName.default("x-cg-pro-api-key"),
  PRICE_CACHE_TTL: duration.default(60_000),

  /** The relying party of IDKit 4 requests, and the key that signs them. */
  WORLD_ID_RP_ID: z.string().regex(/^rp_[A-Za-z0-9_]+$/, { message: "must be a relying-party id (rp_...)" }),
  WORLD_ID_SIGNING_KEY: privateKey,
  WORLD_ID_REQUEST_TTL: duration.default(300_000),
  /** World ID 4.0's enrolment action; defaults to CHAIN_ID's deployment record (it must be what the contract checks). */
  WORLD_ID_ENROLMENT_ACTION: z.string().min(1).max(100).optional(),

  /**
   * A rehearsal of the production stack on the development chain (packages/deploy/rehearsal): sign-in messages for
   * chain 31337 are accepted and the outbox transport's listing (/api/dev/notifications) is served, as outside
   * production. Refused at startup unless CHAIN_ID is the development chain, so a real deployment cannot turn it on.
   */
  ORO_REHEARSAL: booleanString.default(false),
});

export type Config = ReturnType<typeof toConfig>;

/** What a stopping process needs beside World's answers: requests in flight, the last writes, closing connections. */
const SHUTDOWN_MARGIN_MS = 15_000;

function toConfig(raw: z.output<typeof schema>, claimContract: Address) {
  const paymentTypes = [raw.REFERRAL_REFERRER_PAYMENT, raw.REFERRAL_REFEREE_PAYMENT];
  return {
    nodeEnv: raw.NODE_ENV,
    isProduction: raw.NODE_ENV === "production",
    rehearsal: raw.ORO_REHEARSAL,
    host: raw.API_HOST,
    port: raw.API_PORT,
    logLevel: raw.LOG_LEVEL,
    trustProxyHops: raw.TRUST_PROXY_HOPS,
    metrics: { port: raw.METRICS_PORT, host: raw.METRICS_HOST },
    database: raw.DATABASE_URL
      ? ({ kind: "postgres", url: raw.DATABASE_URL, poolSize: raw.DATABASE_POOL_SIZE, connectTimeoutMs: raw.DATABASE_CONNECT_TIMEOUT } as const)
      : ({ kind: "pglite", dataDir: raw.PGLITE_DATA_DIR } as const),
    migrations: { onStart: raw.MIGRATE_ON_START, waitMs: raw.MIGRATION_WAIT },
    readiness: { intervalMs: raw.READY_CHECK_INTERVAL, timeoutMs: raw.READY_CHECK_TIMEOUT },
    shutdownGraceMs:
      raw.SHUTDOWN_GRACE ??
      (raw.WORKERS_ENABLED && raw.NOTIFICATIONS_TRANSPORT === "world-app" ? raw.WORLD_APP_TIMEOUT : 0) + SHUTDOWN_MARGIN_MS,
    corsOrigins: raw.CORS_ORIGINS,
    rateLimit: {
      perIp: raw.RATE_LIMIT_PER_IP,
      perAddress: raw.RATE_LIMIT_PER_ADDRESS,
      windowMs: raw.RATE_LIMIT_WINDOW,
      readyPerIp: raw.RATE_LIMIT_READY_PER_IP,
      sessionRefusalsPerIp: raw.RATE_LIMIT_SESSION_REFUSALS_PER_IP,
      redisUrl: raw.RATE_LIMIT_REDIS_URL,
      redisTimeoutMs: raw.RATE_LIMIT_REDIS_TIMEOUT,
    },
    session: {
      ttlMs: raw.SESSION_TTL,
      cookieName: raw.SESSION_COOKIE_NAME,
      sameSite: raw.SESSION_COOKIE_SAMESITE,
      secure: raw.NODE_ENV === "production" || raw.SESSION_COOKIE_SAMESITE === "none",
      cacheTtlMs: raw.SESSION_CACHE_TTL,
    },
    nonceTtlMs: raw.NONCE_TTL,
    siwe: {
      domains: raw.SIWE_DOMAINS,
      // World App signs in on World Chain; the local stack's chain is accepted outside production and in a rehearsal.
      chainIds:
        raw.NODE_ENV === "production" && !raw.ORO_REHEARSAL ? [CHAIN_IDS.worldChain] : [...new Set([CHAIN_IDS.worldChain, raw.CHAIN_ID])],
      /** How old (by its Issued At) a message may be: as long as its nonce lives. */
      maxAgeMs: raw.NONCE_TTL,
    },
    chain: { id: raw.CHAIN_ID, rpcUrl: raw.RPC_URL, claimContract },
    indexer: { url: raw.INDEXER_URL, timeoutMs: raw.INDEXER_TIMEOUT },
    claimSignerKey: raw.CLAIM_SIGNER_PRIVATE_KEY,
    payoutWalletKey: raw.PAYOUT_WALLET_PRIVATE_KEY,
    referral: {
      referrer: { amountWei: raw.REFERRAL_REFERRER_REWARD, paymentType: raw.REFERRAL_REFERRER_PAYMENT },
      referee: { amountWei: raw.REFERRAL_REFEREE_REWARD, paymentType: raw.REFERRAL_REFEREE_PAYMENT },
      earningsCacheTtlMs: raw.EARNINGS_CACHE_TTL,
      pendingTtlMs: raw.REFERRAL_PENDING_TTL,
      follow: {
        // A replica holds a follower for a pass; a page takes well under a second, and one applied twice is harmless.
        leaseMs: 60_000,
        // A read relies on the payouts followed while the follower reached the newest payout a few passes ago.
        payoutsFollowedWithinMs: Math.max(10_000, 10 * raw.CHAIN_FOLLOW_INTERVAL),
      },
    },
    workers: {
      enabled: raw.WORKERS_ENABLED,
      activationIntervalMs: raw.ACTIVATION_INTERVAL,
      activationRecheckMs: raw.ACTIVATION_RECHECK,
      followIntervalMs: raw.CHAIN_FOLLOW_INTERVAL,
      payoutIntervalMs: raw.PAYOUT_INTERVAL,
      payoutLeaseMs: raw.PAYOUT_LEASE,
      payoutMaxBackoffMs: raw.PAYOUT_MAX_BACKOFF,
      payoutConfirmations: raw.PAYOUT_CONFIRMATIONS,
      payoutsNeedWallet: paymentTypes.includes("auto"),
      notificationIntervalMs: raw.NOTIFICATION_INTERVAL,
    },
    streakCache: {
      store: raw.STREAK_CACHE === "auto" ? (raw.DATABASE_URL ? "database" : "memory") : raw.STREAK_CACHE,
      ttlMs: raw.STREAK_CACHE_TTL,
      maxAgeMs: raw.STREAK_CACHE_MAX_AGE,
      localTtlMs: raw.STREAK_CACHE_LOCAL_TTL,
    },
    publicOrigin: raw.PUBLIC_ORIGIN,
    countryHeader: raw.COUNTRY_HEADER,
    swapRewardMinVolumeUsd: raw.SWAP_REWARD_MIN_VOLUME_USD,
    notifications: {
      transport: raw.NOTIFICATIONS_TRANSPORT,
      appId: raw.WORLD_APP_ID,
      apiKey: raw.WORLD_APP_API_KEY,
      apiUrl: raw.WORLD_APP_API_URL,
      timeoutMs: raw.WORLD_APP_TIMEOUT,
      miniAppPath: raw.NOTIFICATION_MINI_APP_PATH,
      leaseMs: raw.NOTIFICATION_LEASE,
      maxAttempts: raw.NOTIFICATION_MAX_ATTEMPTS,
      concurrency: raw.NOTIFICATION_CONCURRENCY,
      retentionMs: raw.NOTIFICATION_RETENTION,
      streakAtRiskWindowMs: raw.STREAK_AT_RISK_WINDOW,
      /** null: unlimited. */
      perUserPerDay: raw.NOTIFICATIONS_PER_USER_PER_DAY,
      worldVerified: raw.WORLD_APP_VERIFIED,
      refusalPauseMs: raw.NOTIFICATION_REFUSAL_PAUSE,
    },
    prices: {
      provider: raw.PRICE_PROVIDER,
      apiUrl: raw.PRICE_API_URL,
      platform: raw.PRICE_API_PLATFORM,
      apiKey: raw.PRICE_API_KEY,
      apiKeyHeader: raw.PRICE_API_KEY_HEADER,
      cacheTtlMs: raw.PRICE_CACHE_TTL,
    },
    worldId: {
      rpId: raw.WORLD_ID_RP_ID,
      signingKey: raw.WORLD_ID_SIGNING_KEY,
      action: CLAIM_ACTION,
      enrolmentAction: raw.WORLD_ID_ENROLMENT_ACTION ?? deployedEnrolmentAction(raw.CHAIN_ID) ?? ENROLMENT_ACTION,
      requestTtlMs: raw.WORLD_ID_REQUEST_TTL,
    },
  };
}

/** The local chain where the contracts package starts it (`pnpm start`): LOCAL_RPC_URL, or CHAIN_HOST:CHAIN_PORT. */
function localChainUrl(values: Record<string, string>): string {
  if (values.LOCAL_RPC_URL) return values.LOCAL_RPC_URL;
  if (values.CHAIN_HOST || values.CHAIN_PORT) return `http://${values.CHAIN_HOST ?? DEV_PROFILE.host}:${values.CHAIN_PORT ?? DEV_PROFILE.ports.chain}`;
  return DEVELOPMENT_DEFAULTS.RPC_URL;
}

function deployedEnrolmentAction(chainId: number): string | undefined {
  const byChain: Record<number, { worldId: { enrolmentAction?: string } } | undefined> = deployments;
  return byChain[chainId]?.worldId.enrolmentAction;
}

function deployedClaimContract(chainId: number): Address | undefined {
  const byChain: Record<number, { ReferralClaim?: Address } | undefined> = addresses;
  return byChain[chainId]?.ReferralClaim;
}

/** "http://localhost:5173,https://oro.example" → "localhost:5173", "oro.example" (unparsable entries dropped). */
function hostsOf(origins: string): string[] {
  return origins.split(",").flatMap((origin) => {
    try {
      return [new URL(origin.trim()).host];
    } catch {
      return [];
    }
  });
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Production never signs with a publicly known key, nor lets the voucher signer pay gas (one leak, both powers). */
function refuseDevelopmentKeys(config: Config): void {
  const keys = {
    CLAIM_SIGNER_PRIVATE_KEY: config.claimSignerKey,
    PAYOUT_WALLET_PRIVATE_KEY: config.payoutWalletKey,
    WORLD_ID_SIGNING_KEY: config.worldId.signingKey,
  };
  const known = Object.entries(keys).filter(([, key]) => key !== undefined && isHardhatKey(key)).map(([name]) => name);
  if (known.length > 0) {
    throw new ConfigError(`NODE_ENV=production refuses Hardhat's public development keys in ${known.join(", ")}`);
  }
  if (config.payoutWalletKey && privateKeyToAddress(config.payoutWalletKey) === privateKeyToAddress(config.claimSignerKey)) {
    throw new ConfigError("NODE_ENV=production needs a payout wallet apart from the voucher signer: PAYOUT_WALLET_PRIVATE_KEY equals CLAIM_SIGNER_PRIVATE_KEY");
  }
}

/**
 * The secrets, which may be read from a file named by `<NAME>_FILE` instead (a Docker secret under /run/secrets),
 * so that they never show in the container's environment (`docker inspect`). An empty file counts as unset.
 */
export const FILE_SETTINGS = [
  "DATABASE_URL",
  "RPC_URL",
  "RATE_LIMIT_REDIS_URL",
  "CLAIM_SIGNER_PRIVATE_KEY",
  "PAYOUT_WALLET_PRIVATE_KEY",
  "WORLD_ID_SIGNING_KEY",
  "WORLD_APP_API_KEY",
  "PRICE_API_KEY",
] as const;

function readSettingFiles(values: Record<string, string>): void {
  for (const key of FILE_SETTINGS) {
    const file = values[`${key}_FILE`];
    if (file === undefined) continue;
    if (values[key] !== undefined) throw new ConfigError(`${key} and ${key}_FILE are both set: set one`);
    let text: string;
    try {
      text = readFileSync(file, "utf8").trim();
    } catch (error) {
      throw new ConfigError(`${key}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    if (text !== "") values[key] = text;
  }
}

/**
 * Parses a configuration from `source` (process.env by default). Outside production the development
 * profile fills what is unset; in production anything missing is listed in one ConfigError.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value.trim() !== "") values[key] = value.trim();
  }
  readSettingFiles(values);
  const production = values.NODE_ENV === "production";
  const missing: string[] = [];
  for (const key of Object.keys(DEVELOPMENT_DEFAULTS) as DevelopmentSetting[]) {
    if (values[key] !== undefined || production) continue;
    values[key] = key === "RPC_URL" ? localChainUrl(values) : DEVELOPMENT_DEFAULTS[key];
  }
  if (values.SIWE_DOMAINS === undefined && !production) values.SIWE_DOMAINS = hostsOf(values.CORS_ORIGINS ?? "").join(",");
  if (production) {
    missing.push(...PRODUCTION_REQUIRED.filter((key) => values[key] === undefined));
    const auto = [values.REFERRAL_REFERRER_PAYMENT, values.REFERRAL_REFEREE_PAYMENT].includes("auto");
    if (auto && values.PAYOUT_WALLET_PRIVATE_KEY === undefined) missing.push("PAYOUT_WALLET_PRIVATE_KEY");
  }
  if (missing.length > 0) {
    throw new ConfigError(
      `NODE_ENV=production needs these settings, which have development defaults only: ${missing.join(", ")}`,
    );
  }

  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  if (parsed.data.ORO_REHEARSAL && parsed.data.CHAIN_ID !== CHAIN_IDS.development) {
    throw new ConfigError(
      `ORO_REHEARSAL=true is for a rehearsal on the development chain (CHAIN_ID=${CHAIN_IDS.development}) only, refused with CHAIN_ID=${parsed.data.CHAIN_ID}`,
    );
  }
  const claimContract = parsed.data.CLAIM_CONTRACT_ADDRESS ?? deployedClaimContract(parsed.data.CHAIN_ID);
  if (!claimContract) {
    throw new ConfigError(`CLAIM_CONTRACT_ADDRESS is required: @oro/clients has no ReferralClaim for chain ${parsed.data.CHAIN_ID}`);
  }
  const config = toConfig(parsed.data, claimContract);
  if (config.workers.payoutsNeedWallet && !config.payoutWalletKey) {
    throw new ConfigError("PAYOUT_WALLET_PRIVATE_KEY is required when a referral reward is paid `auto`");
  }
  if (config.notifications.transport === "world-app" && !config.notifications.apiKey) {
    throw new ConfigError("WORLD_APP_API_KEY is required when NOTIFICATIONS_TRANSPORT=world-app");
  }
  if (config.prices.provider === "http" && !config.prices.apiUrl) {
    throw new ConfigError("PRICE_API_URL is required when PRICE_PROVIDER=http");
  }
  if (config.isProduction) refuseDevelopmentKeys(config);
  return config;
}
