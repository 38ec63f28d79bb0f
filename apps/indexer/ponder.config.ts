import { createConfig } from "ponder";
import { oroAbi, referralClaimAbi } from "@oro/clients";
import { env } from "./src/env";
import { deploymentFor } from "./src/lib/deployment";

const deployment = deploymentFor(env.chain.id);
const { rpcUrl } = env.chain;

export default createConfig({
  database: env.databaseUrl
    ? { kind: "postgres", connectionString: env.databaseUrl }
    : { kind: "pglite", directory: env.pgliteDirectory ?? env.pgliteRoot },
  chains: {
    [env.chain.name]: {
      id: env.chain.id,
      rpc: rpcUrl === undefined ? undefined : Array.from({ length: env.chain.rpcLanes }, () => rpcUrl),
      disableCache: env.chain.disableRpcCache,
      pollingInterval: env.chain.pollingInterval,
      ethGetLogsBlockRange: env.chain.ethGetLogsBlockRange,
    },
  },
  contracts: {
    Oro: {
      chain: env.chain.name,
      abi: oroAbi,
      address: deployment.oro.address,
      startBlock: deployment.oro.startBlock,
    },
    ReferralClaim: {
      chain: env.chain.name,
      abi: referralClaimAbi,
      address: deployment.referralClaim.address,
      startBlock: deployment.referralClaim.startBlock,
    },
  },
});
