import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { Address } from "viem";
import type { OroApi } from "../../lib/api";
import { useServices } from "../../lib/services";

export const referralCodeKey = (address: Address | null) => ["referral-code", address] as const;
export const referralEligibilityKey = (address: Address | null) => ["referral-eligibility", address] as const;
export const referralProgrammeKey = ["referral-programme"] as const;

/** The programme's rewards (the API's settings), for the share screen's text, signed in or not. */
export function useReferralProgramme() {
  const { api } = useServices();
  return useQuery({ queryKey: referralProgrammeKey, queryFn: () => api.getReferralProgramme() });
}

/** The user's own invite code, for a connected wallet only (a code never changes). */
export function useOwnReferralCode(address: Address | null) {
  const { api } = useServices();
  return useQuery({
    queryKey: referralCodeKey(address),
    enabled: address !== null,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: () => {
      if (!address) throw new Error("Sign in first");
      return api.getReferralCode(address);
    },
  });
}

export function fetchOwnReferralCode(queryClient: QueryClient, api: OroApi, address: Address): Promise<string> {
  return queryClient.fetchQuery({ queryKey: referralCodeKey(address), queryFn: () => api.getReferralCode(address), staleTime: Number.POSITIVE_INFINITY });
}

/**
 * While eligibility cannot be known (the API's 503 while the indexer is down, after the usual two retries), it is asked
 * again this often: the invite card and its deep-link code wait for an answer instead of staying hidden all visit.
 */
export const ELIGIBILITY_RECHECK_MS = 10_000;

/** Whether the user may still accept a code: the API decides per human (never guessed on the client). */
export function useReferralEligibility(address: Address | null) {
  const { api } = useServices();
  return useQuery({
    queryKey: referralEligibilityKey(address),
    enabled: address !== null,
    refetchInterval: (query) => (query.state.status === "error" ? ELIGIBILITY_RECHECK_MS : false),
    queryFn: () => {
      if (!address) throw new Error("Sign in first");
      return api.getReferralEligibility(address);
    },
  });
}
