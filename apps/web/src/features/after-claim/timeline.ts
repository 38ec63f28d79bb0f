/** The after-claim timeline (spec sections 2, 4, 9), in milliseconds after the claim succeeded. */
export const EMAIL_FORM_DELAY_MS = 1000;
export const NOTIFICATION_MODAL_DELAY_MS = 1000;
export const SWAP_REWARD_MODAL_DELAY_MS = 4000;
/** After a claim the after-claim modals may come up to this long later: announcements wait for them. */
export const AFTER_CLAIM_QUIET_MS = SWAP_REWARD_MODAL_DELAY_MS + 2000;
export const COIN_RAIN_VISIBLE_MS = 5000;
export const COIN_RAIN_SPAWN_EVERY_MS = 80;
export const COIN_RAIN_SPAWN_FOR_MS = 3000;
export const COIN_RADII = [18, 24, 36] as const;
