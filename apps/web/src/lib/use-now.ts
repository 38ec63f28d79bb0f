import { useEffect, useState } from "react";

/** Readiness is checked every second (spec section 4). */
export const READY_CHECK_INTERVAL_MS = 1000;

/** The current time in unix seconds, updated every `intervalMs`. */
export function useNowSeconds(intervalMs = READY_CHECK_INTERVAL_MS): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Math.floor(Date.now() / 1000)), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
