import type { ShownNotification } from "@oro/clients";
import type { SimulatorPage } from "./views.js";

/**
 * Lists the reminders World's stand-in (the API's development outbox) recorded, and shows on the phone the newest one
 * to the wallet in hand. Served as its own source text (script.ts): it must not use anything outside its own body.
 */
export async function refreshReminders(page: SimulatorPage): Promise<void> {
  const { byId, escapeHtml } = page;
  const state = page.state();
  if (!state) return;
  const names = new Map(state.humans.flatMap((human) => human.wallets.map((wallet) => [wallet.address.toLowerCase(), `@${wallet.username}`] as const)));
  try {
    const { notifications } = await page.call<{ notifications: ShownNotification[] }>("/notifications");
    const what = (row: ShownNotification) =>
      row.shown ? `<strong>${escapeHtml(row.shown.title)}</strong> — ${escapeHtml(row.shown.message)}` : `<strong>Not delivered</strong> — ${escapeHtml(row.reason ?? "")}`;
    byId("reminders").innerHTML =
      notifications
        .map((row) => `<li>${what(row)} <small>[${row.language}] to ${escapeHtml(names.get(row.address) ?? row.address)}, ${new Date(row.createdAt).toLocaleString()}, opens ${escapeHtml(row.miniAppPath)}</small></li>`)
        .join("") || "<li class=hint>No reminder sent yet.</li>";
    // The phone shows the newest one World delivered to its wallet, in the device's language; one it did not deliver
    // shows as such, with World's reason (World App itself would show nothing).
    // The state as it is now: the wallet in hand may have changed while the list was on its way.
    const latest = page.state() ?? state;
    const active = latest.humans.flatMap((human) => human.wallets).find((wallet) => wallet.id === latest.activeWalletId);
    const newest = notifications.find((row) => row.address.toLowerCase() === active?.address.toLowerCase());
    const banner = byId("phone-notification");
    banner.hidden = newest === undefined;
    banner.classList.toggle("phone__notification--undelivered", newest !== undefined && !newest.shown);
    banner.setAttribute("lang", newest?.language.replace("_", "-") ?? "");
    banner.innerHTML = newest ? what(newest) : "";
  } catch (error) {
    byId("reminders").innerHTML = `<li class=hint>${escapeHtml((error as Error).message)}</li>`;
  }
}
