import { MiniKit } from "@worldcoin/minikit-js";

/** The moments a person feels in native apps: the slider reaching its end, a claim's success, an error. */
export type HapticMoment = "slide-complete" | "success" | "error";

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
