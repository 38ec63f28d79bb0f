import { QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api";

const FIVE_MINUTES = 5 * 60_000;

/** Spec section 7: data is fresh for 5 minutes, failed reads retry twice, unused data is dropped after 5 minutes. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: FIVE_MINUTES, retry: 2, retryDelay, gcTime: FIVE_MINUTES, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** The separate default (chain reads): 3 attempts after the first, waiting 1 s, 2 s, 4 s… and never over 30 s. */
export const BACKOFF_ATTEMPTS = 3;
export function backoffDelay(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, 30_000);
}

/**
 * The wait before a retry: the API's own when it named one (a 429 says when the wallet's budget refills; asking
 * sooner is refused again and spends the next budget), never over the data's freshness; otherwise the backoff.
 */
export function retryDelay(attemptIndex: number, error: unknown): number {
  if (error instanceof ApiRequestError && error.retryAfterMs !== null) return Math.min(error.retryAfterMs, FIVE_MINUTES);
  return backoffDelay(attemptIndex);
}
export const backoffRetry = { retry: BACKOFF_ATTEMPTS, retryDelay } as const;
