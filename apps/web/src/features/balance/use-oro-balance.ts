import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import { env } from "../../env";
import { backoffRetry } from "../../lib/query-client";
import { useServices } from "../../lib/services";

export const balanceKey = (address: Address | null) => ["oro-balance", env.chainId, address] as const;

/** The ORO balance in wei; null while unknown or when the read failed. */
export function useOroBalance(address: Address | null): { wei: bigint | null; failed: boolean; loading: boolean } {
  const { chain } = useServices();
  const query = useQuery({
    queryKey: balanceKey(address),
    enabled: address !== null,
    queryFn: () => {
      if (!address) throw new Error("No address");
      return chain.readOroBalance(address);
    },
    ...backoffRetry,
  });
  return { wei: query.data ?? null, failed: query.isError, loading: query.isPending };
}
