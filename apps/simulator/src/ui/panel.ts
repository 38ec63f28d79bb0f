import type { SimulatorPage, StateView } from "./views.js";

/**
 * Shows the simulator's state in the control panel: the humans and their wallets, the device's settings, what was
 * shared and the log. Served as its own source text (script.ts): it must not use anything outside its own body.
 */
export function renderPanel(page: SimulatorPage, current: StateView): void {
  const { byId, escapeHtml } = page;
  byId("humans").innerHTML = current.humans
    .map(
      (human) => `<div class="human"><div class="human__head"><span>${escapeHtml(human.name)}</span>
      <span class="hint">World ID ${escapeHtml(human.credentials === "4.0-only" ? "4.0 only" : human.credentials === "3.0-only" ? "3.0 only" : "3.0 and 4.0")}</span>
      <label class="check"><input type="checkbox" data-orb="${human.id}" ${human.orbVerified ? "checked" : ""}> Orb-verified</label>
      ${human.credentials === "3.0-only" ? "" : `<label class="check"><input type="checkbox" data-expires-soon="${human.id}" ${human.credentialExpiresSoon ? "checked" : ""} aria-label="${escapeHtml(`${human.name}: World ID credential expires in 10 days`)}"> Credential expires in 10 days</label>`}</div>
      ${human.wallets
        .map(
          (wallet) => `<label class="wallet"><input type="radio" name="wallet" value="${wallet.id}" ${wallet.id === current.activeWalletId ? "checked" : ""} aria-label="${escapeHtml(`${human.name}, ${wallet.label}`)}">
          <span>@${escapeHtml(wallet.username)} · ${escapeHtml(wallet.label)}</span><code>${wallet.address.slice(0, 8)}…${wallet.address.slice(-4)}</code>
          <span>${wallet.oro === null ? "" : `${escapeHtml(wallet.oro)} ORO`}</span></label>`,
        )
        .join("")}</div>`,
    )
    .join("");
  const language = byId<HTMLSelectElement>("language");
  if (language.options.length === 0) language.innerHTML = current.languages.map((code) => `<option value="${code}">${code}</option>`).join("");
  language.value = current.language;
  byId<HTMLInputElement>("auto-approve").checked = current.autoApprove;
  byId<HTMLInputElement>("notch").checked = current.notch;
  for (const bar of document.querySelectorAll<HTMLElement>(".notch")) bar.hidden = !current.notch;
  byId<HTMLInputElement>("verification-fails").checked = current.switches.verificationFails;
  byId<HTMLInputElement>("world-id-3-proofs").checked = current.switches.worldId3Proofs;
  byId<HTMLSelectElement>("next-transaction").value = current.switches.nextTransaction;
  byId<HTMLSelectElement>("notification-answer").value = current.switches.notificationAnswer;
  const active = page.activeWallet();
  byId("permission-state").textContent = active ? active.wallet.notifications : "";
  byId("phone-user").textContent = active ? `@${active.wallet.username}` : "";
  byId("shares").innerHTML =
    current.shares.map((share) => `<li><strong>${escapeHtml(share.title ?? "")}</strong> ${escapeHtml(share.text ?? "")} <a href="${escapeHtml(share.url ?? "")}" target="_blank" rel="noreferrer">${escapeHtml(share.url ?? "")}</a><br><small>${new Date(share.at).toLocaleTimeString()} · ${share.wallet.slice(0, 8)}…</small></li>`).join("") ||
    "<li class=hint>Nothing shared yet.</li>";
  byId("log").innerHTML = current.log.map((entry) => `<li>${new Date(entry.at).toLocaleTimeString()} ${escapeHtml(entry.summary)}</li>`).join("");
  page.showFrameUrl();
}
