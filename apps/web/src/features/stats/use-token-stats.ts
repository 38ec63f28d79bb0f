import { useQuery } from "@tanstack/react-query";
import { env } from "../../env";
import { useServices } from "../../lib/services";

/** Total supply, read on chain (`totalSupply`). */
export function useTotalSupply() {
  const { chain } = useServices();
  return useQuery({ queryKey: ["total-supply", env.chainId], queryFn: () => chain.readTotalSupply() });
}

/** Unique holders, from the indexer through the API (cached there; `stale` while the indexer is down). */
export function useHolders() {
  const { api } = useServices();
  return useQuery({ queryKey: ["token-stats"], queryFn: () => api.getTokenStats() });
}
