import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Address } from "viem";
import { env } from "../../env";
import { useServices } from "../../lib/services";
import { readStored, writeStored } from "../../lib/storage";
import { shouldOfferSwapReward, swapRewardKey } from "../rewards";
import { STREAK_RELOAD_DELAY_MS, useStreakReload } from "../streak";
import { EMAIL_FORM_DELAY_MS, NOTIFICATION_MODAL_DELAY_MS, SWAP_REWARD_MODAL_DELAY_MS } from "./timeline";

/** The modals the timeline asks for; the claim screen's queue shows them one at a time. */
export type AfterClaimModal = "notifications" | "swapReward";

export interface AfterClaimTimeline {
  showEmailForm: boolean;
  dismissEmailForm: () => void;
}

/**
 * What follows a successful claim (spec sections 2, 4, 9), once per success: the streak is read again, then the
 * email form, the notification modal and the swap reward modal each come up at their time, if they apply.
 */
export function useAfterClaimTimeline(successAt: number | null, address: Address | null, openModal: (modal: AfterClaimModal) => void): AfterClaimTimeline {
  const { api, wallet, monitoring } = useServices();
  const queryClient = useQueryClient();
  const streak = useStreakReload(address);
  const [showEmailForm, setShowEmailForm] = useState(false);

  useEffect(() => {
    if (successAt === null || !address) return;
    writeStored("referralEligible", false);
    void queryClient.refetchQueries({ queryKey: swapRewardKey(address) });
    streak.clearCache();
    monitoring.event("claim_success", { chainId: env.chainId });
    const timers = [
      window.setTimeout(() => void streak.reload(), STREAK_RELOAD_DELAY_MS),
      window.setTimeout(() => {
        if (readStored("emailSubmitted")) return;
        // The API knows an email given on another device; if it cannot say, the form shows.
        void api
          .getEmailSubmitted(address)
          .catch(() => false)
          .then((submitted) => {
            if (submitted) writeStored("emailSubmitted", true);
            else setShowEmailForm(true);
          });
      }, EMAIL_FORM_DELAY_MS),
      window.setTimeout(() => {
        if (!wallet.notificationsAvailable() || readStored("hasSeenNotificationModal")) return;
        void wallet
          .getPermissions()
          .catch(() => ({ notifications: false }))
          .then((permissions) => {
            if (permissions.notifications) return;
            writeStored("hasSeenNotificationModal", true);
            openModal("notifications");
          });
      }, NOTIFICATION_MODAL_DELAY_MS),
      window.setTimeout(() => {
        void queryClient
          .fetchQuery({ queryKey: swapRewardKey(address), queryFn: () => api.getSwapReward(address), staleTime: 3000 })
          .then((reward) => {
            if (shouldOfferSwapReward(reward)) openModal("swapReward");
          })
          .catch(() => undefined);
      }, SWAP_REWARD_MODAL_DELAY_MS),
    ];
    return () => timers.forEach((timer) => window.clearTimeout(timer));
    // The timeline runs once per successful claim.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [successAt]);

  return { showEmailForm, dismissEmailForm: () => setShowEmailForm(false) };
}
