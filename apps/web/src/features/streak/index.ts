export { STREAK_RELOAD_DELAY_MS, useStreak, useStreakReload } from "./use-streak";
