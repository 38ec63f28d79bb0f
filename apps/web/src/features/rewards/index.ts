// The swap reward: swap in the partner app, earn ORO.
export { RewardsCard } from "./RewardsCard";
export { SwapRewardModal } from "./SwapRewardModal";
export { shouldOfferSwapReward, swapRewardKey } from "./use-swap-reward";
