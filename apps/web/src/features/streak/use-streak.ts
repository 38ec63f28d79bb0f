import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Address } from "viem";
import { useServices } from "../../lib/services";
import type { OroApi, StreakData } from "../../lib/api";

export const streakKey = (address: Address | null) => ["streak", address] as const;
export const UNKNOWN_ERROR = "Unknown error";

export interface StreakState {
  streak: StreakData | null;
  /** The failure's message ('Unknown error' when it has none); the data is cleared on failure. */
  error: string | null;
}

export function streakStateOf(data: StreakData | undefined, error: unknown): StreakState {
  if (error) {
    const message = error instanceof Error && error.message ? error.message : UNKNOWN_ERROR;
    return { streak: null, error: message };
  }
  return { streak: data ?? null, error: null };
}

/**
 * The wallets whose next streak read must skip the server's cache: a claim was made since the cache last answered.
 * A wallet stays here until such a read succeeds, so that a retry (the query's own, whichever of its reads retries)
 * or the next read after a failed reload still asks past the cache.
 */
const owedFreshRead = new WeakMap<QueryClient, Set<Address>>();
function owedFreshReads(queryClient: QueryClient): Set<Address> {
  let owed = owedFreshRead.get(queryClient);
  if (!owed) owedFreshRead.set(queryClient, (owed = new Set()));
  return owed;
}

async function readStreak(api: OroApi, queryClient: QueryClient, address: Address): Promise<StreakData> {
  const owed = owedFreshReads(queryClient);
  const bypassCache = owed.has(address);
  const streak = await api.getCurrentStreak(address, { bypassCache });
  if (bypassCache) owed.delete(address);
  return streak;
}

/** The streak, for a connected wallet only. */
export function useStreak(address: Address | null): StreakState {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: streakKey(address),
    enabled: address !== null,
    queryFn: () => {
      if (!address) throw new Error(UNKNOWN_ERROR);
      return readStreak(api, queryClient, address);
    },
  });
  return streakStateOf(query.data, query.isError ? query.error : null);
}

/**
 * Streak reload after a claim: clear the server's cache now, reload with the bypass flag after 5 s. A reload that
 * fails is retried as any read (twice; a 429 after the wait the API names), instead of leaving the header without
 * a streak until the data goes stale: a wallet that spent its budget sees its new streak once the budget refills.
 */
export const STREAK_RELOAD_DELAY_MS = 5000;

export function useStreakReload(address: Address | null) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const clearCache = useCallback(() => {
    if (address) api.clearStreakCache(address).catch(() => undefined);
  }, [api, address]);
  const reload = useCallback(async () => {
    if (!address) return;
    owedFreshReads(queryClient).add(address);
    await queryClient.fetchQuery({ queryKey: streakKey(address), queryFn: () => readStreak(api, queryClient, address), staleTime: 0 }).catch(() => undefined);
  }, [api, address, queryClient]);
  return { clearCache, reload };
}
