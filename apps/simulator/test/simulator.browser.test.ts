import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromiumLaunchOptions, HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from "@oro/dev-stack/chromium";
import { freePort, startApi, startIndexer, startLocalChain, startWebDev, type LocalChain, type RunningApi, type RunningIndexer, type WebDevServer } from "@oro/dev-stack";
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../src/index.js";

/**
 * The simulator in Chromium against a real local stack (chain with the contracts, indexer, API, the web app's
 * dev server), started on free ports by @oro/dev-stack. Needs /usr/bin/chromium; skipped with a message without it.
 */
if (!HAS_CHROMIUM) console.warn(`simulator browser test skipped: ${NO_CHROMIUM_MESSAGE}`);

interface StateView {
  activeWalletId: string;
  humans: { id: string; wallets: { id: string; address: string; oro: string | null }[] }[];
  log: { summary: string }[];
}

let logs = "";
let chain: LocalChain | undefined;
let indexer: RunningIndexer | undefined;
let api: RunningApi | undefined;
let web: WebDevServer | undefined;
let simulator: RunningSimulator | undefined;
let browser: Browser | undefined;

async function simulatorState(): Promise<StateView> {
  if (!simulator) throw new Error("no simulator");
  return (await (await fetch(`${simulator.url}state`)).json()) as StateView;
}

/** Records what each MiniKit command resolved with, as seen by the mini app (installed before its scripts run). */
function recordMiniKitResults() {
  const executed: { command: string; executedWith: unknown }[] = [];
  Object.defineProperty(window, "__executed", { value: executed });
  let installed: unknown;
  Object.defineProperty(window, "MiniKit", {
    configurable: true,
    get: () => installed,
    set(value: Record<string, unknown>) {
      installed = value;
      for (const command of ["walletAuth", "sendTransaction", "getPermissions", "requestPermission", "share", "signMessage"]) {
        const original = value[command];
        if (typeof original !== "function") continue;
        value[command] = async (...args: unknown[]) => {
          const result = (await (original as (...a: unknown[]) => Promise<{ executedWith: unknown }>).apply(value, args));
          executed.push({ command, executedWith: result.executedWith });
          return result;
        };
      }
    },
  });
}

/** Closes whatever the mini app shows over the screen (announcements, the halving notice). */
async function closeDialogs(app: FrameLocator) {
  for (const close of await app.getByRole("dialog").getByRole("button", { name: "Close" }).all()) await close.click().catch(() => undefined);
}

/**
 * Clicks `target` until `next` (what the click brings) shows, closing dialogs that open over it meanwhile. On a loaded
 * machine a click can land as its 3 s run out: the target is then gone and `next` on its way, so a failed attempt
 * counts as pressed once `next` is there (CI once clicked "Sign in to claim" for 90 s after it had signed in).
 */
async function press(app: FrameLocator, target: Locator, next: Locator, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failure = await target.click({ timeout: 3_000 }).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    if (failure === undefined || (await next.isVisible())) break;
    if (Date.now() > deadline) throw failure;
    await closeDialogs(app);
  }
  await next.waitFor({ timeout: Math.max(deadline - Date.now(), 30_000) });
}

/** Drags the slider to the end; again if a dialog that opened meanwhile swallowed the drag (no transaction asked). */
async function slideToClaim(page: Page, app: FrameLocator) {
  const thumb = app.getByRole("slider");
  await thumb.waitFor({ timeout: 60_000 });
  const sent = async () => (await simulatorState()).log.some((entry) => entry.summary.startsWith("sendTransaction"));
  for (let attempt = 0; attempt < 5 && !(await sent()); attempt += 1) {
    await closeDialogs(app);
    const box = await thumb.boundingBox();
    const track = await app.locator(".slider").boundingBox();
    if (!box || !track) throw new Error("slider not laid out");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(track.x + track.width + 40, box.y + box.height / 2, { steps: 12 });
    await page.mouse.up();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(await sent())) await page.waitForTimeout(250);
  }
}

describe.skipIf(!HAS_CHROMIUM)("the World App simulator in Chromium, on a local stack", () => {
  beforeAll(async () => {
    logs = mkdtempSync(path.join(tmpdir(), "oro-simulator-test-"));
    chain = await startLocalChain({ logFile: path.join(logs, "chain.log") });
    indexer = await startIndexer({ rpcUrl: chain.rpcUrl, logFile: path.join(logs, "indexer.log") });
    // The mini app's origin is the simulator's: the API accepts sign-in messages for that host only.
    const simulatorPort = await freePort();
    api = await startApi({ rpcUrl: chain.rpcUrl, indexerUrl: indexer.url, corsOrigins: [`http://127.0.0.1:${simulatorPort}`], logFile: path.join(logs, "api.log") });
    web = await startWebDev({ rpcUrl: chain.rpcUrl, apiUrl: api.url, logFile: path.join(logs, "web.log") });
    simulator = await startSimulator({ port: simulatorPort, host: "127.0.0.1", miniAppUrl: web.url, chainRpcUrl: chain.rpcUrl, apiUrl: api.url, chainId: chain.chainId });
    browser = await chromium.launch(chromiumLaunchOptions());
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await simulator?.close();
    await web?.stop();
    await api?.stop();
    await indexer?.stop();
    await chain?.stop();
    if (logs) rmSync(logs, { recursive: true, force: true });
  }, 60_000);

  it("the mini app gets World App's globals and nothing secret", async () => {
    if (!simulator) throw new Error("no simulator");
    const bridge = await (await fetch(`${simulator.url}bridge.js`)).text();
    expect(bridge).toContain('"wallet-auth"');
    // No private key (32-byte hex) travels to the mini app.
    expect(bridge).not.toMatch(/0x[0-9a-fA-F]{64}/);
    const html = await (await fetch(simulator.url.replace("/__simulator/", "/"))).text();
    expect(html).toContain('<script src="/__simulator/bridge.js"></script>');
  });

  it("signs in, verifies, slides to claim and succeeds, every wallet command through MiniKit's World App path", async () => {
    if (!browser || !simulator) throw new Error("stack not started");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (error) => console.error("page error:", error.message));
    // What the API refused, to name the cause when a step times out.
    const refused: string[] = [];
    page.on("response", (response) => {
      if (!response.url().includes("/api/") || response.status() < 400) return;
      void response.text().then((body) => refused.push(`${response.status()} ${new URL(response.url()).pathname}: ${body.slice(0, 200)}`), () => undefined);
    });
    await page.addInitScript(recordMiniKitResults);
    await page.goto(simulator.url);
    const app = page.frameLocator("#mini-app");

    try {
      const verify = app.getByRole("button", { name: "Verify with World ID" });
      await press(app, app.getByRole("button", { name: "Sign in to claim" }), verify, 90_000);
      await press(app, verify, app.getByRole("slider"), 60_000);
      await slideToClaim(page, app);
      await app.locator(".claim--success").waitFor({ timeout: 90_000 });
    } catch (error) {
      const bridgeLog = (await simulatorState()).log.map((entry) => entry.summary).reverse();
      throw new Error(`${(error as Error).message.split("\n")[0]}\nsimulator log: ${JSON.stringify(bridgeLog)}\nAPI refusals: ${JSON.stringify(refused)}`, { cause: error });
    }

    const frame = page.frame({ url: (url) => !url.pathname.startsWith("/__simulator") && url.protocol === "http:" });
    if (!frame) throw new Error("no mini app frame");
    expect(await frame.evaluate(() => Boolean((window as unknown as { WorldApp?: unknown }).WorldApp))).toBe(true);
    const executed = await frame.evaluate(() => (window as unknown as { __executed: { command: string; executedWith: unknown }[] }).__executed);
    expect(executed).toContainEqual({ command: "walletAuth", executedWith: "minikit" });
    expect(executed).toContainEqual({ command: "sendTransaction", executedWith: "minikit" });
    expect(executed.every((entry) => entry.executedWith === "minikit")).toBe(true);

    const state = await simulatorState();
    const summaries = state.log.map((entry) => entry.summary);
    expect(summaries.some((summary) => summary.startsWith("walletAuth: signed in as"))).toBe(true);
    expect(summaries.some((summary) => summary.startsWith("World ID: development proof for Alice"))).toBe(true);
    expect(summaries.some((summary) => /^sendTransaction: 0x[0-9a-f]{64}$/.test(summary))).toBe(true);
    const alice = state.humans.find((human) => human.id === "alice")?.wallets[0];
    expect(Number(alice?.oro ?? "0")).toBeGreaterThan(0);

    // The after-claim offers (reminders, then the e-mail form) come up a moment after the claim, over the tab bar
    // (on a loaded machine after the checks above, not before them): a person closes them, and so does this.
    await page.addLocatorHandler(app.getByRole("dialog").getByRole("button", { name: "Not now" }), (button) => button.click());
    // The controls show where the mini app is as it navigates inside the phone, not only where it was launched.
    await expect.poll(() => page.locator("#frame-url").textContent(), { timeout: 10_000 }).toBe("/");
    await app.getByRole("link", { name: "Share" }).click();
    await expect.poll(() => page.locator("#frame-url").textContent(), { timeout: 10_000 }).toBe("/share");
    await page.close();
  }, 300_000);

  it("a redraw read before a wallet switch does not put the old wallet back: one click, one switch, one launch", async () => {
    if (!browser || !simulator) throw new Error("stack not started");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(simulator.url);
    const bob = page.getByRole("radio", { name: "Bob (two wallets), second wallet", exact: true });
    await expect.poll(() => page.locator("#status").textContent(), { timeout: 60_000 }).not.toMatch(/…$/);
    // The panel's next redraw (every 5 s) is held after its state was read: it answers only after the switch.
    let held: (stale: { fulfil: () => Promise<void>; url: string }) => void = () => undefined;
    const redrawHeld = new Promise<{ fulfil: () => Promise<void>; url: string }>((resolve) => (held = resolve));
    let holding = true;
    await page.route("**/__simulator/state", async (route) => {
      if (!holding) return route.continue();
      holding = false;
      const stale = await route.fetch();
      const body = await stale.text();
      held({ fulfil: () => route.fulfill({ response: stale, body }), url: route.request().url() });
    });
    const selects: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/__simulator/select")) selects.push(request.postData() ?? "");
    });
    const stale = await redrawHeld;
    expect((await simulatorState()).activeWalletId).not.toBe("bob-second");
    await bob.check();
    await expect.poll(() => page.locator("#status").textContent(), { timeout: 60_000 }).toBe("Switching wallet: done");
    const answered = page.waitForEvent("requestfinished", (request) => request.url() === stale.url);
    await stale.fulfil();
    await answered;
    // Whatever the page does with that answer is done within its own tasks: read it after them.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    expect(await bob.isChecked()).toBe(true);
    expect(selects).toHaveLength(1);
    expect((await simulatorState()).activeWalletId).toBe("bob-second");
    await page.close();
  }, 120_000);
});
