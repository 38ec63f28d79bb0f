import fp from "fastify-plugin";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../env.js";
import type { Database } from "../db/database.js";
import { createAuthService, type AuthService, type AuthServiceOptions } from "../services/auth/auth.js";
import { openInvalidationChannel, type InvalidationChannel } from "../lib/invalidation.js";
import { TtlCache } from "../lib/ttl-cache.js";
import { createChainClock } from "../services/chain/chain-clock.js";
import { createChainService, type ChainService } from "../services/chain/chain.js";
import { createHttpIndexerClient, type IndexerClient } from "../services/indexer/client.js";
import { createIndexerReadiness, type IndexerReadiness } from "../services/indexer/readiness.js";
import { createPayoutWorker, type PayoutWorker, type PayoutWorkerOptions } from "../services/payouts/payout-worker.js";
import { createDevelopmentWorld, createOutboxTransport, type DevelopmentWorld } from "../services/notifications/outbox-transport.js";
import { createReminderService, type ReminderService } from "../services/notifications/reminders.js";
import type { NotificationTransport } from "../services/notifications/transport.js";
import { createWorldAppTransport } from "../services/notifications/world-app-transport.js";
import { createPollService, type PollService } from "../services/polls/polls.js";
import {
  createDevelopmentPriceProvider,
  createHttpPriceProvider,
  createPriceService,
  type PriceProvider,
  type PriceService,
} from "../services/prices/prices.js";
import { createReferralService, type ReferralService } from "../services/referrals/index.js";
import { createDatabaseStore, createLayeredStore, createMemoryStore, type StreakCacheStore } from "../services/streaks/streak-cache.js";
import { createStreakService, type StreakService } from "../services/streaks/streaks.js";
import { createUserDataService, type UserDataService } from "../services/user/user-data.js";
import { createWorldIdService, type WorldIdService } from "../services/world-id/world-id.js";
import { createPendingEnrolmentService, type PendingEnrolmentService } from "../services/world-id/pending-enrolments.js";

export interface ServicesOptions {
  config: Config;
  database: Database;
  /** Defaults to the HTTP client of config.indexer.url. */
  indexer?: IndexerClient | undefined;
  /** Defaults to config.chain. */
  chain?: ChainService | undefined;
  afterPayoutSubmit?: PayoutWorkerOptions["afterSubmit"];
}

export interface Services {
  database: Database;
  chain: ChainService;
  indexer: IndexerClient;
  /** Where the indexer stands (current, behind, unreachable), for the readiness answer and the metrics. */
  indexerReadiness: () => Promise<IndexerReadiness>;
  auth: AuthService;
  referrals: ReferralService;
  payouts: PayoutWorker;
  streaks: StreakService;
  reminders: ReminderService;
  /** The stand-in of World the development outbox sends to (none with the world-app transport). */
  developmentWorld: DevelopmentWorld | undefined;
  userData: UserDataService;
  prices: PriceService;
  polls: PollService;
  worldId: WorldIdService;
  pendingEnrolments: PendingEnrolmentService;
}

type SessionCache = NonNullable<AuthServiceOptions["sessionCache"]>;

/** Sessions reused in process for a while, when a sign-out elsewhere reaches this process (the channel listens). */
async function sessionCache(options: ServicesOptions, log: FastifyBaseLogger): Promise<{ cache: SessionCache; channel: InvalidationChannel } | undefined> {
  const { config, database } = options;
  if (config.session.cacheTtlMs <= 0) return undefined;
  const cache: SessionCache = new TtlCache(config.session.cacheTtlMs, 100_000);
  const channel = await openInvalidationChannel({
    database,
    channel: "oro_session_signed_out",
    onInvalidate: (tokenHash) => cache.delete(tokenHash),
    onReset: () => cache.clear(),
    log,
  });
  if (channel.connected) return { cache, channel };
  await channel.close();
  return undefined;
}

async function streakCacheStore(options: ServicesOptions, log: FastifyBaseLogger): Promise<StreakCacheStore> {
  const { config, database } = options;
  if (config.streakCache.store === "memory") return createMemoryStore();
  const shared = createDatabaseStore(database);
  // PGlite is one process's database: nothing to broadcast to, and no copy needed in front of it.
  if (database.kind === "pglite") return shared;
  return createLayeredStore({ shared, database, localTtlMs: config.streakCache.localTtlMs, log });
}

function notificationTransport(options: ServicesOptions, log: FastifyBaseLogger, world: DevelopmentWorld | undefined): NotificationTransport {
  const { notifications } = options.config;
  if (notifications.transport === "world-app" && notifications.apiKey) {
    return createWorldAppTransport({ apiUrl: notifications.apiUrl, appId: notifications.appId, apiKey: notifications.apiKey, timeoutMs: notifications.timeoutMs });
  }
  return createOutboxTransport(options.database.prisma, log, notifications.appId, world ?? createDevelopmentWorld(notifications));
}

function priceProvider({ config }: ServicesOptions): PriceProvider {
  const { prices } = config;
  if (prices.provider === "http" && prices.apiUrl) {
    return createHttpPriceProvider({ apiUrl: prices.apiUrl, platform: prices.platform, apiKey: prices.apiKey, apiKeyHeader: prices.apiKeyHeader });
  }
  return createDevelopmentPriceProvider();
}

/** The app's services as one decorator, built from the config (tests pass their own indexer or chain). */
export default fp<ServicesOptions>(
  async (fastify, options) => {
    const { config, database } = options;
    const { prisma } = database;
    const chain =
      options.chain ??
      createChainService({
        chainId: config.chain.id,
        rpcUrl: config.chain.rpcUrl,
        claimContract: config.chain.claimContract,
        claimSignerKey: config.claimSignerKey,
        payoutWalletKey: config.payoutWalletKey,
      });
    const indexer = options.indexer ?? createHttpIndexerClient({ baseUrl: config.indexer.url, timeoutMs: config.indexer.timeoutMs });
    const sessions = await sessionCache(options, fastify.log);
    // One view of "now" for what the chain decides (a local chain may be moved ahead of this machine's clock).
    const clock = createChainClock(() => chain.clockSeconds());
    const auth = createAuthService({
      database,
      publicClient: chain.publicClient,
      nonceTtlMs: config.nonceTtlMs,
      sessionTtlMs: config.session.ttlMs,
      siwe: config.siwe,
      clock,
      sessionCache: sessions?.cache,
      onSignOut: async (tokenHash) => {
        await sessions?.channel.publish(tokenHash);
      },
    });
    const streaks = createStreakService({
      indexer,
      store: await streakCacheStore(options, fastify.log),
      ttlMs: config.streakCache.ttlMs,
      maxAgeMs: config.streakCache.maxAgeMs,
      log: fastify.log.child({ service: "streaks" }),
    });
    // Earnings' first pages are cached per process: what an activation or a paid voucher changes in one process is
    // dropped in every other (with no LISTEN connection, nothing is cached that another process could make wrong).
    const listening: { referrals?: ReferralService } = {};
    const earningsChannel = await openInvalidationChannel({
      database,
      channel: "oro_earnings_changed",
      onInvalidate: (address) => listening.referrals?.forgetHere(address),
      onReset: () => listening.referrals?.forgetAll(),
      log: fastify.log,
    });
    const earningsLog = fastify.log.child({ service: "referrals" });
    const referrals = createReferralService({
      database,
      chain,
      indexer,
      auth,
      rewards: { referrer: config.referral.referrer, referee: config.referral.referee },
      earningsCacheTtlMs: earningsChannel.connected ? config.referral.earningsCacheTtlMs : 0,
      earningsChangedElsewhere: (addresses) => {
        earningsChannel
          .publish(...addresses.map((address) => address.toLowerCase()))
          .catch((error: unknown) => earningsLog.warn({ err: error }, "could not tell the other processes that earnings changed"));
      },
      pendingTtlMs: config.referral.pendingTtlMs,
      follow: config.referral.follow,
      requestDeadlineMs: config.indexer.timeoutMs,
      // Eligibility needs the wallet's first mint ever, asked of the indexer oldest first.
      cachedFirstClaim: async (address) => (await streaks.firstClaim(address, { bypassCache: false })).claim ?? undefined,
      log: earningsLog,
    });
    listening.referrals = referrals;
    const payouts = createPayoutWorker({
      prisma,
      chain,
      log: fastify.log.child({ service: "payouts" }),
      leaseMs: config.workers.payoutLeaseMs,
      maxBackoffMs: config.workers.payoutMaxBackoffMs,
      confirmations: config.workers.payoutConfirmations,
      afterSubmit: options.afterPayoutSubmit,
      onPaid: (reward) => void forgetBeneficiary(reward.beneficiaryId),
    });

    async function forgetBeneficiary(userId: string) {
      const user = await prisma.user.findUnique({ where: { id: userId } });
      if (user) referrals.forget(user.address);
    }

    const developmentWorld = config.notifications.transport === "outbox" ? createDevelopmentWorld(config.notifications) : undefined;
    const reminders = createReminderService({
      prisma,
      indexer,
      transport: notificationTransport(options, fastify.log.child({ service: "notifications" }), developmentWorld),
      appId: config.notifications.appId,
      miniAppPath: config.notifications.miniAppPath,
      leaseMs: config.notifications.leaseMs,
      maxAttempts: config.notifications.maxAttempts,
      concurrency: config.notifications.concurrency,
      retentionMs: config.notifications.retentionMs,
      streakAtRiskWindowMs: config.notifications.streakAtRiskWindowMs,
      perUserPerDay: config.notifications.perUserPerDay,
      worldVerified: config.notifications.worldVerified,
      refusalPauseMs: config.notifications.refusalPauseMs,
      log: fastify.log.child({ service: "notifications" }),
      clock,
    });
    const userData = createUserDataService({
      prisma,
      countryHeader: config.countryHeader,
      minSwapVolumeUsd: config.swapRewardMinVolumeUsd,
    });
    const prices = createPriceService({ provider: priceProvider(options), ttlMs: config.prices.cacheTtlMs, log: fastify.log.child({ service: "prices" }) });
    const polls = createPollService({ prisma, indexer });
    const worldId = createWorldIdService({
      rpId: config.worldId.rpId,
      signingKey: config.worldId.signingKey,
      action: config.worldId.action,
      enrolmentAction: config.worldId.enrolmentAction,
      ttlMs: config.worldId.requestTtlMs,
    });
    const pendingEnrolments = createPendingEnrolmentService({ prisma, clock });

    fastify.decorate("services", {
      database,
      chain,
      indexer,
      indexerReadiness: createIndexerReadiness({ indexer, freshMs: 5_000, deadlineMs: Math.min(1_000, config.indexer.timeoutMs) }),
      auth,
      referrals,
      payouts,
      streaks,
      reminders,
      developmentWorld,
      userData,
      prices,
      polls,
      worldId,
      pendingEnrolments,
    } satisfies Services);
    fastify.addHook("onClose", async () => {
      await sessions?.channel.close();
      await earningsChannel.close();
      await streaks.close();
      await database.close();
    });
  },
  { name: "services" },
);

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}
