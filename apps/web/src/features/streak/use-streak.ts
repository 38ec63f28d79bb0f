import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Address } from "viem";
import { useServices } from "../../lib/services";
import type { StreakData } from "../../lib/api";

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

/** The streak, for a connected wallet only. */
export function useStreak(address: Address | null): StreakState {
  const { api } = useServices();
  const query = useQuery({
    queryKey: streakKey(address),
    enabled: address !== null,
    queryFn: () => {
      if (!address) throw new Error(UNKNOWN_ERROR);
      return api.getCurrentStreak(address, { bypassCache: false });
    },
  });
  return streakStateOf(query.data, query.isError ? query.error : null);
}

/** Streak reload after a claim: clear the server's cache now, reload with the bypass flag after 5 s. */
export const STREAK_RELOAD_DELAY_MS = 5000;

export function useStreakReload(address: Address | null) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const clearCache = useCallback(() => {
    if (address) api.clearStreakCache(address).catch(() => undefined);
  }, [api, address]);
  const reload = useCallback(async () => {
    if (!address) return;
    await queryClient
      .fetchQuery({
        queryKey: streakKey(address),
        queryFn: () => api.getCurrentStreak(address, { bypassCache: true }),
        staleTime: 0,
        retry: false,
      })
      .catch(() => undefined);
  }, [api, address, queryClient]);
  return { clearCache, reload };
}
