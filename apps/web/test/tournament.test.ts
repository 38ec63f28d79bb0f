import { describe, expect, it } from "vitest";
import { daysUntilTournamentEnd, nextTournamentEnd, TOURNAMENT } from "../src/features/tournament/tournament";

/** A local date and time (the promo counts in the user's own time zone). */
const at = (year: number, month: number, day: number, hour = 12) => new Date(year, month - 1, day, hour);

describe("days until the tournament's March 13", () => {
  it("counts from today's date, not a fixed 3", () => {
    expect(daysUntilTournamentEnd(at(2027, 3, 10))).toBe(3);
    expect(daysUntilTournamentEnd(at(2027, 3, 12))).toBe(1);
    expect(daysUntilTournamentEnd(at(2027, 3, 1))).toBe(12);
  });

  it("is 0 on March 13 itself, from the first to the last minute of the day", () => {
    expect(daysUntilTournamentEnd(at(2027, 3, 13, 0))).toBe(0);
    expect(daysUntilTournamentEnd(new Date(2027, 2, 13, 23, 59, 59))).toBe(0);
  });

  it("moves to next year's March 13 the day after", () => {
    expect(daysUntilTournamentEnd(at(2027, 3, 14))).toBe(365);
    expect(nextTournamentEnd(at(2027, 3, 14)).getFullYear()).toBe(2028);
    expect(nextTournamentEnd(at(2027, 3, 13)).getFullYear()).toBe(2027);
  });

  it("counts February 29 in a leap year", () => {
    expect(daysUntilTournamentEnd(at(2028, 2, 28))).toBe(14);
    expect(daysUntilTournamentEnd(at(2027, 2, 28))).toBe(13);
    expect(daysUntilTournamentEnd(at(2028, 2, 29))).toBe(13);
    // The year after March 14 holds a February 29 only when the next March 13 is in a leap year.
    expect(daysUntilTournamentEnd(at(2026, 3, 14))).toBe(364);
    expect(daysUntilTournamentEnd(at(2027, 3, 14))).toBe(365);
    expect(daysUntilTournamentEnd(at(2027, 1, 1))).toBe(71);
    expect(daysUntilTournamentEnd(at(2028, 1, 1))).toBe(72);
  });

  it("counts whole days at any hour (the clock time does not matter)", () => {
    for (const hour of [0, 1, 6, 12, 18, 23]) expect(daysUntilTournamentEnd(at(2027, 3, 10, hour))).toBe(3);
  });

  it("has the promo's facts: 3 attempts a day, top 20, $100 prizes", () => {
    expect(TOURNAMENT).toMatchObject({ attemptsPerDay: 3, winners: 20, prizeUsd: 100, month: 3, day: 13 });
  });
});
