import type { BridgeMessage, SimulatorPage } from "./views.js";

/**
 * World App's confirmation sheet; resolves true for Approve (at once while the panel approves automatically, or for
 * a command World App does not confirm). Served as its own source text (script.ts): it must not use anything outside
 * its own body.
 */
export function confirmSheet(page: SimulatorPage, message: BridgeMessage): Promise<boolean> {
  const { byId } = page;
  const titles: Record<string, string> = {
    "wallet-auth": "Sign in to the mini app with your wallet?",
    "sign-message": "Sign this message?",
    "send-transaction": "Send this transaction?",
    verify: "Share a World ID proof with the mini app?",
    share: "Share?",
  };
  const title = titles[message.command];
  if (!title || page.state()?.autoApprove) return Promise.resolve(true);
  const sheet = byId("sheet");
  byId("sheet-title").textContent = title;
  // The text to be signed as the wallet shows it; anything else as JSON.
  const payload = (message.payload ?? {}) as Record<string, unknown>;
  const shown = typeof payload.siweMessage === "string" ? payload.siweMessage : typeof payload.message === "string" ? payload.message : JSON.stringify(message.payload, null, 2);
  byId("sheet-detail").textContent = shown.slice(0, 4000);
  sheet.hidden = false;
  return new Promise((resolve) => {
    const finish = (approved: boolean) => {
      sheet.hidden = true;
      byId("sheet-approve").onclick = null;
      byId("sheet-reject").onclick = null;
      resolve(approved);
    };
    byId("sheet-approve").onclick = () => finish(true);
    byId("sheet-reject").onclick = () => finish(false);
  });
}
