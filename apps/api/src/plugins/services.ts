import fp from "fastify-plugin";
import type { Config } from "../env.js";
import type { Database } from "../db/database.js";
import { createAuthService, type AuthService } from "../services/auth.js";
import { createChainService, type ChainService } from "../services/chain.js";
import { createHttpIndexerClient, type IndexerClient } from "../services/indexer.js";
import { createPayoutWorker, type PayoutWorker, type PayoutWorkerOptions } from "../services/payout-worker.js";
import { createReferralService, type ReferralService } from "../services/referrals.js";

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
  auth: AuthService;
  referrals: ReferralService;
  payouts: PayoutWorker;
}

/** The app's services as one decorator, built from the config (tests pass their own indexer or chain). */
export default fp<ServicesOptions>(
  (fastify, options, done) => {
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
    const auth = createAuthService({
      prisma,
      publicClient: chain.publicClient,
      nonceTtlMs: config.nonceTtlMs,
      sessionTtlMs: config.session.ttlMs,
      siweDomains: config.siweDomains,
    });
    const referrals = createReferralService({
      prisma,
      chain,
      indexer,
      auth,
      rewards: { referrer: config.referral.referrer, referee: config.referral.referee },
      earningsCacheTtlMs: config.referral.earningsCacheTtlMs,
      log: fastify.log.child({ service: "referrals" }),
    });
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

    fastify.decorate("services", { database, chain, indexer, auth, referrals, payouts } satisfies Services);
    fastify.addHook("onClose", () => database.close());
    done();
  },
  { name: "services" },
);

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}
