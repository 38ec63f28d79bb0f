import { useCallback, useState } from "react";

export type ClaimModal = "verifyInfo" | "notifications" | "swapReward" | "referralCode";

/** One modal at a time: a modal asked for while another is open waits for it to close. */
export function useModalQueue() {
  const [queue, setQueue] = useState<ClaimModal[]>([]);
  const open = useCallback((modal: ClaimModal) => {
    setQueue((current) => (current.includes(modal) ? current : [...current, modal]));
  }, []);
  const close = useCallback(() => setQueue((current) => current.slice(1)), []);
  return { active: queue[0] ?? null, open, close };
}
