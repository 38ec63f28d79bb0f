// @vitest-environment node
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { freePort, startApi, startIndexer, startLocalChain, type LocalChain, type RunningApi, type RunningIndexer } from "@oro/dev-stack";
import { chromiumLaunchOptions, HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from "@oro/dev-stack/chromium";
import { chromium, type Browser, type Page } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The referral programme end to end in Chromium, against the real stack: the local chain with the contracts
 * deployed, the indexer and the API as processes (on fresh PGlite, free ports), the web app from the Vite dev
 * server with the development wallet. User A (development account 3) claims and shares their code; user B
 * (account 4) accepts it with a signed message, makes their first claim, then claims the referee reward on chain
 * and sees the success modal; A claims the invite reward and the entry turns into the check mark.
 */
if (!HAS_CHROMIUM) console.warn(`referral browser test skipped: ${NO_CHROMIUM_MESSAGE}`);
/** Generous: the machine is shared, and the indexer and the API's worker decide when a referral becomes payable. */
const STEP_MS = 120_000;
// Where the run's screenshots go: not committed (a test never rewrites a tracked file).
const shotsDir = join(import.meta.dirname, "..", "test-results");

let chain: LocalChain | undefined;
let indexer: RunningIndexer | undefined;
let api: RunningApi | undefined;
let server: ViteDevServer | undefined;
let browser: Browser | undefined;
let origin = "";

async function userPage(account: number): Promise<Page> {
  if (!browser) throw new Error("no browser");
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  // Every announcement (where the app has them) is marked seen: this test is about the referral flow.
  const announcements = "../src/features/announcements/announcements.ts";
  const module = (await import(/* @vite-ignore */ announcements).catch(() => ({}))) as { allAnnouncementIds?: () => string[] };
  const seen = JSON.stringify(module.allAnnouncementIds?.() ?? []);
  await context.addInitScript(
    ({ index, seenAnnouncements }) => {
      window.localStorage.setItem("oro.devAccountIndex", String(index));
      window.localStorage.setItem("oro.hasSeenNotificationModal", "true");
      window.localStorage.setItem("oro.seenAnnouncements", seenAnnouncements);
    },
    { index: account, seenAnnouncements: seen },
  );
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error (account ${account}):`, error.message));
  return page;
}

async function signInAndVerify(page: Page): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole("button", { name: "Sign in to claim" }).click();
  await page.getByRole("button", { name: "Verify with World ID" }).click({ timeout: 30_000 });
  await page.getByRole("slider").waitFor({ timeout: 30_000 });
}

async function closeAnyDialog(page: Page): Promise<void> {
  const close = page.getByRole("dialog").getByRole("button", { name: "Close" });
  if (await close.isVisible()) await close.click();
}

/** Drags the slider's thumb to the end and waits for the mint to show on chain. */
async function slideToClaim(page: Page): Promise<void> {
  await closeAnyDialog(page);
  const thumb = page.getByRole("slider");
  // The invite card of a never-minted user loads after the slider and moves it up: drag once the layout holds.
  let box = await thumb.boundingBox();
  for (let settled = 0; settled < 3; ) {
    await page.waitForTimeout(250);
    const next = await thumb.boundingBox();
    settled = next && box && next.y === box.y ? settled + 1 : 0;
    box = next;
  }
  const track = await page.locator(".slider").boundingBox();
  if (!box || !track) throw new Error("slider not laid out");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width + 40, box.y + box.height / 2, { steps: 10 });
  await page.mouse.up();
  await page.locator(".claim--success").waitFor({ timeout: STEP_MS });
}

/** Reloads /share until `ready` shows (the API activates a referral once the indexer has the referee's mint). */
async function reloadShareUntil(page: Page, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    await page.goto(`${origin}/share`);
    await page.getByRole("heading", { name: "Invites" }).waitFor({ timeout: 30_000 });
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error("the referral did not become payable in time");
    await page.waitForTimeout(3000);
  }
}

describe.skipIf(!HAS_CHROMIUM)("referral programme in Chromium against the real API and chain", () => {
  beforeAll(async () => {
    mkdirSync(shotsDir, { recursive: true });
    const webPort = await freePort();
    origin = `http://127.0.0.1:${webPort}`;
    chain = await startLocalChain();
    indexer = await startIndexer({ rpcUrl: chain.rpcUrl });
    api = await startApi({ rpcUrl: chain.rpcUrl, indexerUrl: indexer.url, corsOrigins: [origin] });
    process.env.VITE_RPC_URL = chain.rpcUrl;
    process.env.VITE_API_BASE_URL = api.url;
    server = await createServer({ root: join(import.meta.dirname, ".."), logLevel: "error", server: { host: "127.0.0.1", port: webPort, strictPort: true } });
    await server.listen();
    browser = await chromium.launch(chromiumLaunchOptions());
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await api?.stop();
    await indexer?.stop();
    await chain?.stop();
  }, 60_000);

  it("A's code accepted by B with a signed message; both rewards claimed on chain", async () => {
    const a = await userPage(3);
    const b = await userPage(4);

    // A is a human who has claimed (a referrer is paid only then), and reads their own code on /share.
    await signInAndVerify(a);
    await slideToClaim(a);
    await a.getByRole("link", { name: "Share" }).click();
    const codeButton = a.getByRole("button", { name: /^Copy your invite code / });
    await codeButton.waitFor({ timeout: 30_000 });
    const code = (await a.locator(".share-code__value").textContent()) ?? "";
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    await a.getByText("No invites yet. Share your code to start earning.").waitFor({ timeout: 30_000 });

    // B has never claimed: the API says B may accept; B enters A's code (typed lower case) and signs the message.
    await signInAndVerify(b);
    await b.getByRole("heading", { name: "Were you referred by someone?" }).waitFor({ timeout: 30_000 });
    await b.getByRole("button", { name: "Enter code" }).click();
    await b.getByRole("textbox", { name: "Invite code" }).fill(code.toLowerCase());
    await b.getByRole("button", { name: "Submit" }).click();
    await b.getByText("dev-3 invited you! Claim your first ORO to get your referral bonus.").waitFor({ timeout: 30_000 });
    expect(await b.getByRole("dialog").count()).toBe(0);

    // B's first claim makes the referral payable.
    await slideToClaim(b);

    // A's invite shows B with the reward to claim.
    const invite = a.getByTestId("invite").filter({ hasText: "dev-4" });
    await reloadShareUntil(a, () => invite.isVisible());
    await expect(invite.getByRole("button", { name: "Claim 1 ORO" }).isEnabled()).resolves.toBe(true);
    expect(await a.getByTestId("users-referred").textContent()).toBe("1");

    // B claims the referee reward on chain and sees the success modal.
    const panel = b.getByRole("region", { name: "Invited by dev-3" });
    await reloadShareUntil(b, () => panel.isVisible());
    await panel.getByRole("button", { name: "Claim" }).click();
    const success = b.getByRole("dialog", { name: "+0.5 ORO" });
    await success.waitFor({ timeout: STEP_MS });
    expect(await success.textContent()).toContain("You earned extra ORO from dev-3");
    await success.getByRole("button", { name: "Great!" }).click();
    await b.screenshot({ path: join(shotsDir, "referral-referee.png") });

    // A claims the invite reward: the entry turns into the disabled check mark with the amount.
    await invite.getByRole("button", { name: "Claim 1 ORO" }).click();
    const paid = invite.getByRole("button", { name: "Paid: 1 ORO" });
    await paid.waitFor({ timeout: STEP_MS });
    expect(await paid.isDisabled()).toBe(true);
    // After the refetch without cache the API says so too (and not only this page's memory of the chain).
    await reloadShareUntil(a, () => invite.getByRole("button", { name: "Paid: 1 ORO" }).isVisible());
    expect(await a.getByTestId("total-earned").textContent()).toBe("1 ORO");
    await a.screenshot({ path: join(shotsDir, "referral-referrer.png") });
  }, 900_000);
});
