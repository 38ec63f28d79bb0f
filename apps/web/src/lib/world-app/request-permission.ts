import { MiniKit } from "@worldcoin/minikit-js";
import { Permission } from "@worldcoin/minikit-js/commands";
import { getDevWallet } from "./fallback";
import { toWorldAppError } from "./errors";
import type { NotificationPermissionOutcome } from "./types/request-permission";

export type * from "./types/request-permission";

/** Asks World App for the notification permission (MiniKit `requestPermission`). */
export async function requestNotificationPermission(): Promise<NotificationPermissionOutcome> {
  try {
    await MiniKit.requestPermission({
      permission: Permission.Notifications,
      fallback: async () => (await getDevWallet("requestPermission")).requestNotificationPermission(),
    });
    return "granted";
  } catch (error) {
    const { code } = toWorldAppError("requestPermission", error);
    if (code === "already_granted") return "already_granted";
    if (code === "already_requested") return "already_requested";
    if (code === "user_rejected" || code === "permission_disabled") return "denied";
    throw toWorldAppError("requestPermission", error);
  }
}
