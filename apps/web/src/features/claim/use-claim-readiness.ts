import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import { env } from "../../env";
import { mintRecordKey, mintRecordOf } from "../../lib/chain";
import { backoffRetry } from "../../lib/query-client";
import { useServices } from "../../lib/services";
import { useSession } from "../session";
import type { VerificationResult } from "../../lib/world-app/verify";
import { useNowSeconds } from "../../lib/use-now";

export const nextMintKey = (address: Address | null, mintRecord: string | null) => ["next-mint-at", env.chainId, address, mintRecord] as const;

/** Ready when now is at or after the next mint time; no next time (unknown yet, or unreadable) means not ready. */
export function isClaimReady(nextMintAt: number | null | undefined, nowSeconds: number): boolean {
  return nextMintAt != null && nowSeconds >= nextMintAt;
}

export interface ClaimReadiness {
  /** Unix seconds from which the human may mint again: last mint + wait between mints, both from the chain. */
  nextMintAt: number | null;
  ready: boolean;
  nowSeconds: number;
  failed: boolean;
  refresh: () => void;
}

/**
 * Claim readiness, checked every second. The next mint time is read again when the user connects (the address
 * is in the key), when the human's mint record (3.0 nullifier hash or 4.0 session) becomes known (likewise) and on `refresh`.
 */
export function useClaimReadiness(verification: VerificationResult | null): ClaimReadiness {
  const { chain } = useServices();
  const user = useSession();
  const address = user?.address ?? null;
  const record = verification ? mintRecordOf(verification) : null;
  const nowSeconds = useNowSeconds();
  const query = useQuery({
    queryKey: nextMintKey(address, mintRecordKey(record)),
    enabled: address !== null && record !== null,
    queryFn: async () => {
      if (record === null) return null;
      const [mintData, wait] = await Promise.all([chain.readMintData(record), chain.readWaitBetweenMints()]);
      return Number(mintData.lastMintedAt + wait);
    },
    staleTime: Number.POSITIVE_INFINITY,
    ...backoffRetry,
  });
  const nextMintAt = query.data ?? null;
  return {
    nextMintAt,
    ready: isClaimReady(nextMintAt, nowSeconds),
    nowSeconds,
    failed: query.isError,
    refresh: () => void query.refetch(),
  };
}
