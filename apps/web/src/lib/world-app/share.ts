import { MiniKit } from "@worldcoin/minikit-js";
import { WorldAppError, toWorldAppError } from "./errors";
import type { ShareContent } from "./types/share";

export type * from "./types/share";

/** Opens the share sheet (MiniKit `share`); outside World App, the browser's own share sheet or the clipboard. */
export async function share(content: ShareContent): Promise<void> {
  try {
    await MiniKit.share({
      ...content,
      fallback: async () => {
        if (typeof navigator.share === "function") {
          await navigator.share(content);
          return;
        }
        if (navigator.clipboard) {
          await navigator.clipboard.writeText([content.text, content.url].filter(Boolean).join(" "));
          return;
        }
        throw new WorldAppError("share", "unavailable");
      },
    });
  } catch (error) {
    throw toWorldAppError("share", error);
  }
}
