/* global window, PopStateEvent -- these callbacks run inside the page */
// The README's tour pictures: `pnpm --filter @oro/dev-stack screenshots` starts the stack as `pnpm start` does
// (on free ports, its own state folder), opens the World App simulator in Chromium, signs in, verifies and
// claims in the phone, and writes docs/tour/simulator-claim.png; then opens the share screen and writes
// docs/tour/share.png; then Alice's offer to move to World ID 4.0 (move-to-world-id-4.png) and Erin, a 4.0-only
// human, enrolled and ready to claim (world-id-4-human.png). Needs /usr/bin/chromium; the package script builds
// what it runs from first.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { chromiumLaunchOptions } from "../dist/chromium.js";
import { freePort, LocalStack, SERVICE_NAMES } from "../dist/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const outDir = join(root, "docs", "tour");

const stackDir = mkdtempSync(join(tmpdir(), "oro-tour-"));
const ports = {};
for (const name of SERVICE_NAMES) ports[name] = await freePort();
const stack = new LocalStack({ mode: "start", ports, stackDir, onProgress: (line) => console.log(`  ${line}`) });

/** Closes whatever the mini app shows over the screen (announcements, notices). */
async function closeDialogs(app) {
  for (const close of await app.getByRole("dialog").getByRole("button", { name: "Close" }).all()) await close.click().catch(() => undefined);
}

/** Closes dialogs until none has come up for 2 s (an announcement opens a moment after the screen settles). */
async function settleDialogs(app) {
  let quietSince = Date.now();
  const deadline = Date.now() + 20_000;
  while (Date.now() - quietSince < 2_000 && Date.now() < deadline) {
    if ((await app.getByRole("dialog").count()) > 0) {
      await closeDialogs(app);
      quietSince = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function press(app, target, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await target.click({ timeout: 3_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await closeDialogs(app);
  }
}

let browser;
try {
  await stack.start();
  const simulatorUrl = stack.status.simulator.url;
  if (stack.status.simulator.state !== "ready") throw new Error(`the simulator is ${stack.status.simulator.detail}`);
  browser = await chromium.launch(chromiumLaunchOptions());
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (error) => console.error("page error:", error.message));
  page.on("response", (response) => {
    if (response.url().includes("/api/") && response.status() >= 400) {
      void response.text().then((body) => console.error(`  ${response.status()} ${response.url()}: ${body}`), () => undefined);
    }
  });
  await page.goto(simulatorUrl);
  const app = page.frameLocator("#mini-app");

  await press(app, app.getByRole("button", { name: "Sign in to claim" }), 90_000);
  await press(app, app.getByRole("button", { name: "Verify with World ID" }), 60_000);
  const thumb = app.getByRole("slider");
  await thumb.waitFor({ timeout: 60_000 });
  mkdirSync(outDir, { recursive: true });
  // The claim screen, ready to claim, inside the simulator with its controls.
  await settleDialogs(app);
  await page.screenshot({ path: join(outDir, "simulator-claim.png") });
  console.log(`  wrote ${join(outDir, "simulator-claim.png")}`);

  const box = await thumb.boundingBox();
  const track = await app.locator(".slider").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width + 40, box.y + box.height / 2, { steps: 12 });
  await page.mouse.up();
  await app.locator(".claim--success").waitFor({ timeout: 90_000 }).catch(() => console.warn("  (no claim success shown)"));

  await settleDialogs(app);
  const frame = page.frame({ url: (url) => !url.pathname.startsWith("/__simulator") && url.protocol === "http:" });
  await frame?.evaluate(() => {
    window.history.pushState({}, "", "/share");
    window.dispatchEvent(new PopStateEvent("popstate"));
  });
  await app.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 30_000 });
  await settleDialogs(app);
  await page.screenshot({ path: join(outDir, "share.png") });
  console.log(`  wrote ${join(outDir, "share.png")}`);

  // Alice, verified with World ID 3.0, is offered the move to 4.0 on her claim screen once she has claimed.
  await page.locator("#relaunch").click();
  const moveCard = app.getByRole("region", { name: "Move to World ID 4.0" });
  await moveCard.waitFor({ timeout: 90_000 });
  await settleDialogs(app);
  await moveCard.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(outDir, "move-to-world-id-4.png") });
  console.log(`  wrote ${join(outDir, "move-to-world-id-4.png")}`);

  // Erin, verified after World App stopped making 3.0 credentials, has only World ID 4.0: she enrols as she verifies.
  await page.getByRole("radio", { name: "Erin (verified after June 2026), main wallet", exact: true }).check();
  await page.locator("#status").filter({ hasText: /^Switching wallet: done$/ }).waitFor({ timeout: 90_000 });
  await press(app, app.getByRole("button", { name: "Sign in to claim" }), 90_000);
  await press(app, app.getByRole("button", { name: "Verify with World ID" }), 60_000);
  await app.getByRole("slider").waitFor({ timeout: 90_000 });
  await settleDialogs(app);
  await page.screenshot({ path: join(outDir, "world-id-4-human.png") });
  console.log(`  wrote ${join(outDir, "world-id-4-human.png")}`);
} catch (error) {
  const pages = browser?.contexts().flatMap((context) => context.pages()) ?? [];
  await pages[0]?.screenshot({ path: join(stackDir, "failure.png") }).catch(() => undefined);
  console.error(`  failed; the stack's logs and failure.png are kept in ${stackDir}`);
  throw error;
} finally {
  await browser?.close();
  await stack.stop();
}
rmSync(stackDir, { recursive: true, force: true });
