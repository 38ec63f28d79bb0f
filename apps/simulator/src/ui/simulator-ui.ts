import type { BridgeMessage, ChainView, HumanView, SimulatorPage, StateView, UiPieces, WalletView } from "./views.js";

/**
 * The simulator page's script. It relays the mini app's bridge messages to the simulator server (which alone
 * holds the development keys), shows World App's confirmation sheet when asked to, and drives the controls; its
 * pieces (the panel, the reminders, the sheet, the controls) come in `pieces`.
 *
 * Served as `(${simulatorUi})(pieces)` (script.ts): it must not use anything outside its own body.
 */
export function simulatorUi(pieces: UiPieces): void {
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
    pieces.renderPanel(page, state);
  }

  // A redraw outside the controls' actions (every 5 s, after a wallet command): a state read before an action began, or
  // while one runs, may predate what the action changes. Drawn after the click, it put the control just clicked back
  // (CI: the wallet radio unchecked under the pointer by a command's redraw read 0.2 s before), and a second click made
  // a second change: the wallet switched, and the mini app launched, twice. The action draws its own state.
  let actionsBegun = 0;
  let actionsRunning = 0;
  async function redraw() {
    const begun = actionsBegun;
    const current = await call<StateView>("/state");
    if (actionsRunning > 0 || begun !== actionsBegun) return;
    state = current;
    pieces.renderPanel(page, state);
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

  function launch(path: string) {
    frame.setAttribute("src", path);
    byId("frame-url").textContent = path;
  }

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
    actionsBegun += 1;
    actionsRunning += 1;
    say(`${label}…`);
    try {
      await run();
      say(`${label}: done`);
    } catch (error) {
      say(`${label}: ${(error as Error).message}`, true);
    } finally {
      actionsRunning -= 1;
    }
  }

  const page: SimulatorPage = { frame, byId, escapeHtml, say, call, state: () => state, activeWallet, refresh, refreshChain, launch, showFrameUrl, action, takeStorage };

  async function handleBridgeMessage(message: BridgeMessage) {
    const approved = await pieces.confirmSheet(page, message);
    const { answer } = await call<{ answer: { event: string; payload: unknown } | null }>("/command", { message, approved });
    if (answer) frame.contentWindow?.postMessage({ source: "oro-simulator-host", event: answer.event, payload: answer.payload }, window.location.origin);
    await redraw();
  }

  window.addEventListener("message", (event: MessageEvent<unknown>) => {
    if (event.source !== frame.contentWindow || event.origin !== window.location.origin) return;
    const data = event.data as { source?: unknown; message?: BridgeMessage } | null;
    if (!data || data.source !== "oro-simulator-bridge" || !data.message || typeof data.message.command !== "string") return;
    const message = data.message;
    // One sheet at a time, in order, as in the wallet.
    queue = queue.then(() => handleBridgeMessage(message)).catch((error: unknown) => say(`${message.command}: ${(error as Error).message}`, true));
  });

  pieces.wireControls(page);

  void refresh()
    .then(() => {
      launch(`/${window.location.search}`);
      return Promise.all([refreshChain(), pieces.refreshReminders(page)]);
    })
    .catch((error: unknown) => say((error as Error).message, true));
  window.setInterval(() => {
    void refreshChain();
    void pieces.refreshReminders(page);
    void redraw().catch(() => undefined);
  }, 5_000);
  window.setInterval(showFrameUrl, 500);
}
