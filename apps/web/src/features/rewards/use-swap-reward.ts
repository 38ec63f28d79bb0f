import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import type { SwapReward } from "../../lib/api";
import { useServices } from "../../lib/services";

export const swapRewardKey = (address: Address | null) => ["swap-reward", address] as const;

/** A swap reward counts as a success from the minimum swap volume the API serves (its setting) on. */
export function isSwapRewardSuccess(reward: SwapReward | null | undefined): boolean {
  return reward != null && reward.totalSwapVolumeUsd >= reward.minSwapVolumeUsd;
}

/** The swap-reward modal is offered for a success unless the reward is Ineligible or already Claimed. */
export function shouldOfferSwapReward(reward: SwapReward | null | undefined): reward is SwapReward {
  if (!reward || !isSwapRewardSuccess(reward)) return false;
  return reward.rewardStatus !== "Ineligible" && reward.rewardStatus !== "Claimed";
}

export const swapRewardTermsKey = ["swap-reward-terms"] as const;

/** The offer's minimum for anyone, signed in or not (the API's setting): the card names it before sign-in too. */
export function useSwapRewardTerms() {
  const { api } = useServices();
  return useQuery({ queryKey: swapRewardTermsKey, queryFn: () => api.getSwapRewardTerms(), staleTime: Infinity });
}

export function useSwapReward(address: Address | null) {
  const { api } = useServices();
  return useQuery({
    queryKey: swapRewardKey(address),
    enabled: address !== null,
    queryFn: () => {
      if (!address) throw new Error("No address");
      return api.getSwapReward(address);
    },
  });
}
