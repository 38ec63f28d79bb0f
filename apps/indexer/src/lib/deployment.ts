import { deployments } from "@oro/clients";
import type { Address } from "viem";

/** Where the indexed contracts live on one chain, and the blocks they were created in. */
export interface IndexedDeployment {
  chainId: number;
  oro: { address: Address; startBlock: number };
  referralClaim: { address: Address; startBlock: number };
}

interface RecordedContract {
  readonly address: Address;
  readonly blockNumber: number;
}

interface RecordedDeployment {
  readonly contracts: { readonly Oro?: RecordedContract; readonly ReferralClaim?: RecordedContract };
}

/**
 * The ORO and ReferralClaim deployment recorded in `@oro/clients` for a chain. A chain without a record
 * (World Chain before its first deploy) is a configuration error, reported in one line.
 */
export function deploymentFor(chainId: number): IndexedDeployment {
  const recorded = (deployments as Readonly<Record<string, RecordedDeployment | undefined>>)[String(chainId)];
  const oro = recorded?.contracts.Oro;
  const referralClaim = recorded?.contracts.ReferralClaim;
  if (!oro || !referralClaim) {
    throw new Error(
      `@oro/clients has no ORO deployment for chain ${chainId}: deploy the contracts there, then run pnpm generate`,
    );
  }
  return {
    chainId,
    oro: { address: oro.address, startBlock: oro.blockNumber },
    referralClaim: { address: referralClaim.address, startBlock: referralClaim.blockNumber },
  };
}
