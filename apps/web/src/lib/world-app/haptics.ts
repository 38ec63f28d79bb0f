import { MiniKit } from "@worldcoin/minikit-js";
import type { HapticMoment } from "./types/haptics";

export type * from "./types/haptics";

const FEEDBACK = {
  "slide-complete": { hapticsType: "impact", style: "medium" },
  success: { hapticsType: "notification", style: "success" },
  error: { hapticsType: "notification", style: "error" },
} as const;

/**
 * MiniKit `sendHapticFeedback`. A touch, never a step: outside World App (or if World App declines) nothing happens
 * and nothing is thrown, so no flow waits on it.
 */
export function hapticFeedback(moment: HapticMoment): void {
  void MiniKit.sendHapticFeedback({ ...FEEDBACK[moment], fallback: () => undefined }).catch(() => undefined);
}
