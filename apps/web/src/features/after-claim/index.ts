// The after-claim timeline: what follows a successful claim, and when.
export { CoinRain } from "./CoinRain";
export { EmailForm } from "./EmailForm";
export { AFTER_CLAIM_QUIET_MS } from "./timeline";
export { useAfterClaimTimeline } from "./use-after-claim-timeline";
