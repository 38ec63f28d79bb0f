/* global window, document -- these callbacks run inside the page */
// The whole claim flow in a plain browser against the local stack, with the development wallet.
// `node scripts/e2e-local.mjs --stack` starts the stack itself on free ports with @oro/dev-stack (the local chain
// with the contracts deployed, the indexer and the API on fresh PGlite) and stops it (by process group) at the
// end. Without --stack it uses a running stack (`pnpm start` at the root; RPC_URL / API_URL to match it).
// Signs in (walletAuth → API nonce + SIWE), verifies (development proof, IDKit request signed by the API),
// slides to claim (a real mint on the local chain), then checks the header streak (1 day, through the API's
// streak cache and the indexer), the price card (the API's token price) and the after-claim timeline up to the
// swap-reward decision at 4 s, then reloads and expects the countdown. Uses a fresh development account each run.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, startApi, startIndexer, startLocalChain } from "@oro/dev-stack";
import { chromiumLaunchOptions } from "@oro/dev-stack/chromium";
import { chromium } from "playwright-core";
import { createServer } from "vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const withStack = process.argv.includes("--stack");
/** What --stack started, newest first when stopped. */
const services = [];

async function stopStack() {
  for (const service of services.reverse()) await service.stop();
}

let rpcUrl = process.env.RPC_URL ?? "http://127.0.0.1:8545";
let apiUrl = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;
const webPort = await freePort();
const webOrigin = `http://127.0.0.1:${webPort}`;
if (withStack) {
  try {
    const onStarted = (service) => services.push(service);
    const chain = await startLocalChain({ onStarted });
    rpcUrl = chain.rpcUrl;
    console.log(`✓ local chain on ${rpcUrl}`);
    const indexer = await startIndexer({ rpcUrl, onStarted });
    services.push(indexer); // its stop also deletes its data folder
    console.log(`✓ indexer on ${indexer.url}`);
    const api = await startApi({ rpcUrl, indexerUrl: indexer.url, corsOrigins: [webOrigin], onStarted });
    services.push(api);
    apiUrl = api.url;
    console.log(`✓ API on ${apiUrl}`);
  } catch (error) {
    await stopStack();
    throw error;
  }
}
const account = Number(process.env.DEV_ACCOUNT ?? 3 + Math.floor(Math.random() * 7));

process.env.VITE_RPC_URL = rpcUrl;
process.env.VITE_API_BASE_URL = apiUrl;
const server = await createServer({ root, logLevel: "error", server: { host: "127.0.0.1", port: webPort, strictPort: true } });
await server.listen();
const origin = webOrigin;
const browser = await chromium.launch(chromiumLaunchOptions());
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
  const claimedAt = Date.now();
  const swapRewardAnswer = page.waitForResponse((response) => response.url().includes("/api/user/uno_rewards") && Date.now() - claimedAt >= 3_000, { timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector("[data-testid=streak]")?.textContent === "1 day", null, { timeout: 30_000 });
  step(`header streak after the claim (server cache cleared, reloaded with bypassCache after 5 s): ${await page.getByTestId("streak").textContent()}`);
  const price = page.locator(".claim--success .price-card__value");
  await price.waitFor({ timeout: 20_000 });
  step(`price card: ${await price.textContent()} (${await page.locator(".claim--success .price-card__change").textContent()})`);
  const reward = await (await swapRewardAnswer).json();
  const offered = await page.getByRole("dialog", { name: "You earned a swap reward" }).isVisible();
  step(`swap-reward decision at 4 s: ${reward.rewardStatus}, ${reward.totalSwapVolumeUsd} USD → ${offered ? "modal offered" : "no modal"}`);
  if (offered !== (reward.rewardStatus === "Eligible" && reward.totalSwapVolumeUsd >= 5)) throw new Error("the swap-reward decision does not follow the rule");
  step(`email form shown: ${await page.getByRole("textbox", { name: "Email" }).isVisible()}`);
  await page.screenshot({ path: join(root, "screenshots", "e2e-local-success.png") });
  await page.reload();
  await page.getByRole("timer").waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => /\d\d:\d\d:\d\d/.test(document.querySelector("[role=timer]")?.textContent ?? ""), null, { timeout: 20_000 });
  step(`after a reload the next claim is counted down: ${await page.getByRole("timer").textContent()}`);
  step(`header balance: ${await page.getByTestId("balance").textContent()}`);
} finally {
  await browser.close();
  await server.close();
  await stopStack();
}
