import { useEffect, useState } from "react";

/** The about page's estimate of humans: a base count on a fixed instant, plus a steady number per hour since. */
export const HUMAN_COUNT = {
  base: 1_850_000,
  perHour: 150,
  /** The instant the base count was taken: 1 April 2025, 00:00 UTC. */
  since: Date.UTC(2025, 3, 1),
} as const;

const HOUR_MS = 3_600_000;

/** 1,850,000 + 150 × whole hours since the fixed instant (never below the base). */
export function estimatedHumans(nowMs: number): number {
  const hours = Math.max(0, Math.floor((nowMs - HUMAN_COUNT.since) / HOUR_MS));
  return HUMAN_COUNT.base + HUMAN_COUNT.perHour * hours;
}

/** Milliseconds until the count next changes (the next whole hour after the fixed instant). */
export function msUntilNextHour(nowMs: number): number {
  const elapsed = nowMs - HUMAN_COUNT.since;
  if (elapsed < 0) return -elapsed;
  return HOUR_MS - (elapsed % HOUR_MS);
}

/** The estimate, re-rendered when the hour turns while the page is open. */
export function useEstimatedHumans(): number {
  const [count, setCount] = useState(() => estimatedHumans(Date.now()));
  useEffect(() => {
    let timer = 0;
    const schedule = () => {
      // A few ms past the boundary, so the new hour is counted even if the timer fires a little early.
      timer = window.setTimeout(() => {
        setCount(estimatedHumans(Date.now()));
        schedule();
      }, msUntilNextHour(Date.now()) + 5);
    };
    schedule();
    return () => window.clearTimeout(timer);
  }, []);
  return count;
}
