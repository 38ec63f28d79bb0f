/* global window, document -- these callbacks run inside the page */
// The whole claim flow in a plain browser against the local stack, with the development wallet:
//   1. pnpm --filter @oro/contracts exec hardhat chain        (CHAIN_PORT, default 8545)
//   2. the API (apps/api) on API_PORT (default 3001), pointed at that chain
//   3. node scripts/e2e-local.mjs                              (RPC_URL / API_PORT to match)
// Signs in (walletAuth → API nonce + SIWE), verifies (development proof), slides to claim (a real mint on the
// local chain), then reloads and expects the countdown. Uses a fresh development account each run.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { createServer } from "vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const rpcUrl = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const account = Number(process.env.DEV_ACCOUNT ?? 3 + Math.floor(Math.random() * 7));
const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

process.env.VITE_RPC_URL = rpcUrl;
const server = await createServer({ root, logLevel: "error", server: { host: "127.0.0.1", port: 0, strictPort: true } });
await server.listen();
const origin = server.resolvedUrls.local[0].replace(/\/$/, "");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: flags });
const step = (text) => console.log(`✓ ${text}`);
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.addInitScript((index) => window.localStorage.setItem("oro.devAccountIndex", String(index)), account);
  await page.goto(`${origin}/`);
  await page.getByRole("button", { name: "Sign in to claim" }).click();
  await page.getByRole("button", { name: "Verify with World ID" }).waitFor({ timeout: 20_000 });
  step(`signed in with development account ${account} through the API (nonce + SIWE)`);
  await page.getByRole("button", { name: "Verify with World ID" }).click();
  const thumb = page.getByRole("slider");
  await thumb.waitFor({ timeout: 20_000 });
  step("verified with a development proof; the chain says a claim is ready");
  const box = await thumb.boundingBox();
  const track = await page.locator(".slider").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width + 40, box.y + box.height / 2, { steps: 10 });
  await page.mouse.up();
  await page.locator(".claim--success").waitFor({ timeout: 60_000 });
  step(`minted on the local chain: ${await page.locator(".claim__title--amount").textContent()}`);
  await page.screenshot({ path: join(root, "screenshots", "e2e-local-success.png") });
  await page.reload();
  await page.getByRole("timer").waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => /\d\d:\d\d:\d\d/.test(document.querySelector("[role=timer]")?.textContent ?? ""), null, { timeout: 20_000 });
  step(`after a reload the next claim is counted down: ${await page.getByRole("timer").textContent()}`);
  step(`header balance: ${await page.getByTestId("balance").textContent()}`);
} finally {
  await browser.close();
  await server.close();
}
