/**
 * The simulator page's script. It relays the mini app's bridge messages to the simulator server (which alone
 * holds the development keys), shows World App's confirmation sheet when asked to, and drives the controls.
 *
 * Served as `(${simulatorUi})()`: it must not use anything outside its own body.
 */
export function simulatorUi(): void {
  interface WalletView {
    id: string;
    label: string;
    username: string;
    address: string;
    notifications: string;
    oro: string | null;
  }
  interface HumanView {
    id: string;
    name: string;
    orbVerified: boolean;
    credentialExpiresSoon: boolean;
    credentials: string;
    wallets: WalletView[];
  }
  interface StateView {
    activeWalletId: string;
    language: string;
    languages: string[];
    autoApprove: boolean;
    notch: boolean;
    switches: { verificationFails: boolean; nextTransaction: string; notificationAnswer: string; worldId3Proofs: boolean };
    humans: HumanView[];
    shares: { at: string; wallet: string; title: string | null; text: string | null; url: string | null }[];
    log: { at: string; summary: string }[];
  }
  interface ChainView {
    blockTime: string;
    amountPerMint: string | null;
    waitBetweenMintsSeconds: number | null;
    killed: boolean | null;
    oro: string | null;
  }
  interface Reminder {
    address: string;
    language: string;
    title: string;
    message: string;
    miniAppPath: string;
    createdAt: string;
    /** As World App shows it: `${username}` filled in with the wallet's username; null when World did not deliver it. */
    shown: { title: string; message: string } | null;
    sent: boolean;
    /** Why World did not deliver it. */
    reason: string | null;
  }
  interface BridgeMessage {
    command: string;
    version?: number;
    payload?: unknown;
  }

  const BASE = "/__simulator";
  const frame = document.getElementById("mini-app") as HTMLIFrameElement;
  const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
  const statusLine = byId<HTMLParagraphElement>("status");
  const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  let state: StateView | null = null;
  let queue: Promise<void> = Promise.resolve();

  function say(message: string, error = false) {
    statusLine.textContent = message;
    statusLine.classList.toggle("error", error);
  }

  async function call<T>(path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${BASE}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answer = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(answer.error ?? `${path}: ${response.status}`);
    return answer;
  }

  function activeWallet(): { human: HumanView; wallet: WalletView } | null {
    for (const human of state?.humans ?? []) {
      const wallet = human.wallets.find((candidate) => candidate.id === state?.activeWalletId);
      if (wallet) return { human, wallet };
    }
    return null;
  }

  function render() {
    if (!state) return;
    const current = state;
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
    const active = activeWallet();
    byId("permission-state").textContent = active ? active.wallet.notifications : "";
    byId("phone-user").textContent = active ? `@${active.wallet.username}` : "";
    byId("shares").innerHTML =
      current.shares.map((share) => `<li><strong>${escapeHtml(share.title ?? "")}</strong> ${escapeHtml(share.text ?? "")} <a href="${escapeHtml(share.url ?? "")}" target="_blank" rel="noreferrer">${escapeHtml(share.url ?? "")}</a><br><small>${new Date(share.at).toLocaleTimeString()} · ${share.wallet.slice(0, 8)}…</small></li>`).join("") ||
      "<li class=hint>Nothing shared yet.</li>";
    byId("log").innerHTML = current.log.map((entry) => `<li>${new Date(entry.at).toLocaleTimeString()} ${escapeHtml(entry.summary)}</li>`).join("");
    showFrameUrl();
  }

  /** Where the mini app is now: it navigates inside the frame (same origin through the proxy), not only where it was launched. */
  function showFrameUrl() {
    let where = frame.getAttribute("src") ?? "";
    try {
      const location = frame.contentWindow?.location;
      if (location && location.href !== "about:blank") where = `${location.pathname}${location.search}${location.hash}`;
    } catch {
      // not readable while it loads: the launch path
    }
    const shown = byId("frame-url");
    if (shown.textContent !== where) shown.textContent = where;
  }

  async function refresh() {
    state = await call<StateView>("/state");
    render();
  }

  async function refreshChain() {
    try {
      const chain = await call<ChainView>("/chain");
      byId("chain-time").textContent = `Chain time ${new Date(chain.blockTime).toLocaleString()} (local ${new Date().toLocaleString()})`;
      byId("token-status").textContent = chain.oro
        ? `ORO ${chain.oro}: ${chain.amountPerMint ?? "?"} ORO per mint, wait ${chain.waitBetweenMintsSeconds === null ? "?" : `${chain.waitBetweenMintsSeconds / 3600} h`}${chain.killed ? ", KILLSWITCHED" : ""}`
        : "No ORO deployment for this chain.";
    } catch (error) {
      byId("chain-time").textContent = `Chain not reachable: ${(error as Error).message}`;
    }
  }

  async function refreshReminders() {
    if (!state) return;
    const names = new Map(state.humans.flatMap((human) => human.wallets.map((wallet) => [wallet.address.toLowerCase(), `@${wallet.username}`] as const)));
    try {
      const { notifications } = await call<{ notifications: Reminder[] }>("/notifications");
      const what = (row: Reminder) =>
        row.shown ? `<strong>${escapeHtml(row.shown.title)}</strong> — ${escapeHtml(row.shown.message)}` : `<strong>Not delivered</strong> — ${escapeHtml(row.reason ?? "")}`;
      byId("reminders").innerHTML =
        notifications
          .map((row) => `<li>${what(row)} <small>[${row.language}] to ${escapeHtml(names.get(row.address) ?? row.address)}, ${new Date(row.createdAt).toLocaleString()}, opens ${escapeHtml(row.miniAppPath)}</small></li>`)
          .join("") || "<li class=hint>No reminder sent yet.</li>";
      // The phone shows the newest one World delivered to its wallet, in the device's language; one it did not deliver
      // shows as such, with World's reason (World App itself would show nothing).
      const active = state.humans.flatMap((human) => human.wallets).find((wallet) => wallet.id === state?.activeWalletId);
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

  function launch(path: string) {
    frame.setAttribute("src", path);
    byId("frame-url").textContent = path;
  }

  /** World App's confirmation sheet; resolves true for Approve. */
  function confirmSheet(message: BridgeMessage): Promise<boolean> {
    const titles: Record<string, string> = {
      "wallet-auth": "Sign in to the mini app with your wallet?",
      "sign-message": "Sign this message?",
      "send-transaction": "Send this transaction?",
      verify: "Share a World ID proof with the mini app?",
      share: "Share?",
    };
    const title = titles[message.command];
    if (!title || state?.autoApprove) return Promise.resolve(true);
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

  async function handleBridgeMessage(message: BridgeMessage) {
    const approved = await confirmSheet(message);
    const { answer } = await call<{ answer: { event: string; payload: unknown } | null }>("/command", { message, approved });
    if (answer) frame.contentWindow?.postMessage({ source: "oro-simulator-host", event: answer.event, payload: answer.payload }, window.location.origin);
    await refresh();
  }

  window.addEventListener("message", (event: MessageEvent<unknown>) => {
    if (event.source !== frame.contentWindow || event.origin !== window.location.origin) return;
    const data = event.data as { source?: unknown; message?: BridgeMessage } | null;
    if (!data || data.source !== "oro-simulator-bridge" || !data.message || typeof data.message.command !== "string") return;
    const message = data.message;
    // One sheet at a time, in order, as in the wallet.
    queue = queue.then(() => handleBridgeMessage(message)).catch((error: unknown) => say(`${message.command}: ${(error as Error).message}`, true));
  });

  /** Each simulated wallet is its own phone: the mini app's storage is kept per wallet. */
  function takeStorage(): Record<string, string> {
    const entries: Record<string, string> = {};
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key !== null) entries[key] = localStorage.getItem(key) ?? "";
    }
    localStorage.clear();
    sessionStorage.clear();
    return entries;
  }

  async function action(label: string, run: () => Promise<unknown>) {
    say(`${label}…`);
    try {
      await run();
      say(`${label}: done`);
    } catch (error) {
      say(`${label}: ${(error as Error).message}`, true);
    }
  }

  byId("humans").addEventListener("change", (event) => {
    const target = event.target as HTMLInputElement;
    if (target.name === "wallet") {
      void action("Switching wallet", async () => {
        const { storage } = await call<{ storage: Record<string, string> }>("/select", { walletId: target.value, storage: takeStorage() });
        for (const [key, value] of Object.entries(storage)) localStorage.setItem(key, value);
        await refresh();
        launch("/");
      });
    } else if (target.dataset.orb) {
      const humanId = target.dataset.orb;
      void action("World ID status", () => call("/humans", { humanId, orbVerified: target.checked }).then(refresh));
    } else if (target.dataset.expiresSoon) {
      const humanId = target.dataset.expiresSoon;
      void action("World ID credential", () => call("/humans", { humanId, credentialExpiresSoon: target.checked }).then(refresh));
    }
  });
  byId<HTMLSelectElement>("language").addEventListener("change", (event) => {
    const language = (event.target as HTMLSelectElement).value;
    void action(`Device language ${language}`, async () => {
      await call("/settings", { language });
      await refresh();
      launch(frame.getAttribute("src") ?? "/");
    });
  });
  const setting = (id: string, key: string, read: (element: HTMLInputElement & HTMLSelectElement) => unknown) =>
    byId(id).addEventListener("change", (event) => {
      void action("Setting", () => call("/settings", { [key]: read(event.target as HTMLInputElement & HTMLSelectElement) }).then(refresh));
    });
  setting("auto-approve", "autoApprove", (element) => element.checked);
  // World App reports the safe area at launch: the mini app is relaunched with it.
  byId("notch").addEventListener("change", (event) => {
    const on = (event.target as HTMLInputElement).checked;
    void action("Setting", () => call("/settings", { notch: on }).then(refresh).then(() => launch(frame.getAttribute("src") ?? "/")));
  });
  setting("verification-fails", "verificationFails", (element) => element.checked);
  setting("world-id-3-proofs", "worldId3Proofs", (element) => element.checked);
  setting("next-transaction", "nextTransaction", (element) => element.value);
  setting("notification-answer", "notificationAnswer", (element) => element.value);
  byId("permission-reset").addEventListener("click", () => void action("Permission reset", () => call("/permissions/reset", {}).then(refresh)));
  byId("open-deep-link").addEventListener("click", () => {
    const params = new URLSearchParams();
    const code = byId<HTMLInputElement>("deep-referral-code").value.trim();
    const by = byId<HTMLInputElement>("deep-referred-by").value.trim();
    if (code) params.set("referralCode", code);
    if (by) params.set("referredBy", by);
    const query = params.toString();
    launch(query ? `/?${query}` : "/");
  });
  byId("relaunch").addEventListener("click", () => {
    launch("/");
  });
  // A reinstall: the mini app's storage and cookies go; World App (its proofs' replay guard, its sessions) stays.
  byId("reinstall").addEventListener("click", () => {
    void action("Reinstall mini app", async () => {
      frame.setAttribute("src", "about:blank");
      await call("/reinstall", {});
      takeStorage();
      launch("/");
    });
  });
  function advance(seconds: number) {
    // The phone's clock moves with the chain: the mini app is relaunched with it.
    void action(`Chain time +${seconds / 3600} h`, async () => {
      await call("/chain/advance", { seconds });
      await refreshChain();
      launch(frame.getAttribute("src") ?? "/");
    });
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>("[data-advance]")) {
    button.addEventListener("click", () => advance(Number(button.dataset.advance)));
  }
  // Any whole number of hours (the streak-at-risk nudge comes 4 h before a streak lapses: +20 h after a claim is due).
  byId("advance-by").addEventListener("click", () => advance(Math.round(Number(byId<HTMLInputElement>("advance-hours").value)) * 3600));
  byId("owner-set-amount").addEventListener("click", () => {
    const amount = byId<HTMLInputElement>("owner-amount").value.trim();
    void action(`Amount per mint ${amount}`, () => call("/owner", { task: "amount-per-mint", amount }).then(refreshChain));
  });
  byId("owner-set-wait").addEventListener("click", () => {
    const wait = byId<HTMLInputElement>("owner-wait").value.trim();
    void action(`Wait between mints ${wait}`, () => call("/owner", { task: "wait-between-mints", wait }).then(refreshChain));
  });
  byId("owner-killswitch").addEventListener("click", () => {
    if (!window.confirm("Killswitch the ORO token on the local chain? Minting stops for ever (restart the chain to undo).")) return;
    void action("Killswitch", () => call("/owner", { task: "killswitch" }).then(refreshChain));
  });

  byId("owner-close-world-id-3").addEventListener("click", () => {
    if (!window.confirm("Close World ID 3.0 on the local chain? 3.0 proofs stop minting for ever; every human enrols with 4.0.")) return;
    void action("Close World ID 3.0", () => call("/owner", { task: "close-world-id-3" }).then(refreshChain));
  });

  void refresh()
    .then(() => {
      launch(`/${window.location.search}`);
      return Promise.all([refreshChain(), refreshReminders()]);
    })
    .catch((error: unknown) => say((error as Error).message, true));
  window.setInterval(() => {
    void refreshChain();
    void refreshReminders();
    void refresh().catch(() => undefined);
  }, 5_000);
  window.setInterval(showFrameUrl, 500);
}
