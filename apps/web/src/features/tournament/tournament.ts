/** The tournament promo's facts (spec section 9): the final day, attempts per day, winners and prize. */
export const TOURNAMENT = {
  /** The tournament ends on March 13 (month 3, day 13) each year. */
  month: 3,
  day: 13,
  attemptsPerDay: 3,
  winners: 20,
  prizeUsd: 100,
} as const;

const DAY_MS = 86_400_000;

/** The year of the next March 13 on or after today's date (in the user's time zone). */
function endYear(now: Date): number {
  const afterEnd = now.getMonth() + 1 > TOURNAMENT.month || (now.getMonth() + 1 === TOURNAMENT.month && now.getDate() > TOURNAMENT.day);
  return afterEnd ? now.getFullYear() + 1 : now.getFullYear();
}

/**
 * Whole calendar days from today (in the user's time zone) to the next March 13: 0 on March 13 itself, and the
 * next year's once it has passed. Counted on calendar dates, so a daylight-saving change does not shift it.
 */
export function daysUntilTournamentEnd(now: Date): number {
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  const end = Date.UTC(endYear(now), TOURNAMENT.month - 1, TOURNAMENT.day);
  return Math.round((end - today) / DAY_MS);
}

/** The next March 13 (local midnight), for showing the date in the user's language. */
export function nextTournamentEnd(now: Date): Date {
  return new Date(endYear(now), TOURNAMENT.month - 1, TOURNAMENT.day);
}
