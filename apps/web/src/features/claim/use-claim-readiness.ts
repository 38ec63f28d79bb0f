import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import { env } from "../../env";
import { backoffRetry } from "../../lib/query-client";
import { useServices } from "../../lib/services";
import { useSession } from "../session/use-session";
import { useVerification } from "../verification/use-verification";
import { useNowSeconds } from "./use-now";

export const nextMintKey = (address: Address | null, nullifierHash: bigint | null) =>
  ["next-mint-at", env.chainId, address, nullifierHash?.toString() ?? null] as const;

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
 * is in the key), when the nullifier hash becomes known (likewise) and on `refresh`.
 */
export function useClaimReadiness(): ClaimReadiness {
  const { chain } = useServices();
  const user = useSession();
  const address = user?.address ?? null;
  const verification = useVerification(address);
  const nullifierHash = verification?.nullifierHash ?? null;
  const nowSeconds = useNowSeconds();
  const query = useQuery({
    queryKey: nextMintKey(address, nullifierHash),
    enabled: address !== null && nullifierHash !== null,
    queryFn: async () => {
      if (nullifierHash === null) return null;
      const [mintData, wait] = await Promise.all([chain.readMintData(nullifierHash), chain.readWaitBetweenMints()]);
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
