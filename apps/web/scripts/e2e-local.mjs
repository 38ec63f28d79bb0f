/* global window, document -- these callbacks run inside the page */
// The whole claim flow in a plain browser against the local stack, with the development wallet.
// `node scripts/e2e-local.mjs --stack` starts the stack itself on free ports (the contracts package's
// `hardhat chain`, the indexer's `scripts/start.ts start` on fresh PGlite, the API's `src/server.ts` on fresh
// PGlite) and stops them (by process group) at the end. Without --stack it uses a running stack:
//   1. pnpm --filter @oro/contracts exec hardhat chain        (CHAIN_PORT, default 8545)
//   2. the indexer and the API (apps/api) on API_PORT (default 3001), pointed at that chain
//   3. node scripts/e2e-local.mjs                              (RPC_URL / API_URL to match)
// Signs in (walletAuth → API nonce + SIWE), verifies (development proof, IDKit request signed by the API),
// slides to claim (a real mint on the local chain), then checks the header streak (1 day, through the API's
// streak cache and the indexer), the price card (the API's token price) and the after-claim timeline up to the
// swap-reward decision at 4 s, then reloads and expects the countdown. Uses a fresh development account each run.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { createServer } from "vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const repo = join(root, "..", "..");
const withStack = process.argv.includes("--stack");
const services = [];
const scratch = withStack ? mkdtempSync(join(tmpdir(), "oro-web-e2e-")) : null;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a stack process in its own process group and waits until `ready` matches its output. */
function startService(name, command, args, cwd, env, ready, timeoutMs = 240_000) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  services.push({ name, child });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready in ${timeoutMs} ms:\n${output.slice(-3000)}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}):\n${output.slice(-3000)}`)));
  });
}

async function waitForOk(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url).then((response) => response.ok, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} not ready in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function stopStack() {
  for (const { child } of services.reverse()) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

let rpcUrl = process.env.RPC_URL ?? "http://127.0.0.1:8545";
let apiUrl = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;
const webPort = await freePort();
const webOrigin = `http://127.0.0.1:${webPort}`;
if (withStack) {
  try {
    const [chainPort, indexerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    rpcUrl = `http://127.0.0.1:${chainPort}`;
    apiUrl = `http://127.0.0.1:${apiPort}`;
    const contractsDir = join(repo, "contracts");
    await startService("chain", join(contractsDir, "node_modules", ".bin", "hardhat"), ["chain"], contractsDir, { CHAIN_HOST: "127.0.0.1", CHAIN_PORT: String(chainPort), LOCAL_RPC_URL: "" }, /local chain ready/);
    console.log(`✓ local chain on ${rpcUrl}`);
    const indexerDir = join(repo, "apps", "indexer");
    const indexerUrl = `http://127.0.0.1:${indexerPort}`;
    const indexer = startService("indexer", join(indexerDir, "node_modules", ".bin", "tsx"), ["scripts/start.ts", "start"], indexerDir, {
      LOCAL_RPC_URL: rpcUrl,
      INDEXER_CHAIN_ID: "31337",
      PORT: String(indexerPort),
      PGLITE_ROOT: join(scratch, "indexer"),
      PGLITE_DIRECTORY: "",
      DATABASE_URL: "",
      DATABASE_SCHEMA: "",
      PONDER_TELEMETRY_DISABLED: "true",
    }, /$^/);
    indexer.catch((error) => console.error(error.message));
    await waitForOk(`${indexerUrl}/ready`, 240_000);
    console.log(`✓ indexer on ${indexerUrl}`);
    const apiDir = join(repo, "apps", "api");
    await startService("api", join(apiDir, "node_modules", ".bin", "tsx"), ["src/server.ts"], apiDir, {
      NODE_ENV: "development",
      API_HOST: "127.0.0.1",
      API_PORT: String(apiPort),
      PGLITE_DATA_DIR: join(scratch, "api"),
      RPC_URL: rpcUrl,
      INDEXER_URL: indexerUrl,
      CORS_ORIGINS: webOrigin,
    }, /Server listening at/);
    console.log(`✓ API on ${apiUrl}`);
  } catch (error) {
    stopStack();
    throw error;
  }
}
const account = Number(process.env.DEV_ACCOUNT ?? 3 + Math.floor(Math.random() * 7));
const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

process.env.VITE_RPC_URL = rpcUrl;
process.env.VITE_API_BASE_URL = apiUrl;
const server = await createServer({ root, logLevel: "error", server: { host: "127.0.0.1", port: webPort, strictPort: true } });
await server.listen();
const origin = webOrigin;
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
  stopStack();
}
