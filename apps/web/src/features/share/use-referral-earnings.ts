import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Address } from "viem";
import { InvalidPaymentTypeError } from "../../lib/api";
import { useServices } from "../../lib/services";

export const referralEarningsKey = (address: Address | null) => ["referral-earnings", address] as const;

/** What the user earned from invites; used on /share only, so the query runs only there. */
export function useReferralEarnings(address: Address | null) {
  const { api } = useServices();
  return useQuery({
    queryKey: referralEarningsKey(address),
    enabled: address !== null,
    queryFn: () => {
      if (!address) throw new Error("Sign in first");
      return api.getReferralEarnings(address, { forceBustCache: false });
    },
    // An answer the app cannot read will not read better on a retry.
    retry: (failures, error) => !(error instanceof InvalidPaymentTypeError) && failures < 2,
  });
}

/** Reloads the earnings past the API's cache (after a reward claim). */
export function useRefetchEarningsWithoutCache(address: Address | null) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useCallback(() => {
    if (!address) return;
    void queryClient
      .fetchQuery({
        queryKey: referralEarningsKey(address),
        queryFn: () => api.getReferralEarnings(address, { forceBustCache: true }),
        staleTime: 0,
        retry: false,
      })
      .catch(() => undefined);
  }, [address, api, queryClient]);
}
