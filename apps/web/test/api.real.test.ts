// @vitest-environment node
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addresses, SIGN_IN_STATEMENT } from "@oro/clients";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiRequestError, createOroApi, type OroApi } from "../src/lib/api";

/**
 * The API module against the REAL API: apps/api started as a process (its own `tsx src/server.ts`) on a free
 * port, with a fresh PGlite database and no indexer behind it (INDEXER_URL points at a closed port), so the
 * indexer-backed calls show their real failure answers. Nothing of apps/api's source is imported.
 */
const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../api");
/** Hardhat development account #7 (public test key, no real funds). */
const account = privateKeyToAccount("0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356");
const other = privateKeyToAccount("0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97");
const ORO = addresses[31337].Oro;

let server: ChildProcess | undefined;
let dataDir = "";
let baseUrl = "";
let token: string | null = null;
let api: OroApi;
/** Every answer the API gave, to check what it stored (e.g. the locale) where the module returns nothing. */
const answers: { path: string; status: number; body: unknown }[] = [];

function recordingFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  return fetch(request).then(async (response) => {
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null);
    answers.push({ path: new URL(request.url).pathname, status: response.status, body });
    return response;
  });
}

function startApi(): Promise<string> {
  dataDir = mkdtempSync(path.join(tmpdir(), "oro-web-api-"));
  server = spawn(path.join(apiDir, "node_modules/.bin/tsx"), ["src/server.ts"], {
    cwd: apiDir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "development",
      API_HOST: "127.0.0.1",
      API_PORT: "0",
      PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
      INDEXER_URL: "http://127.0.0.1:9",
      INDEXER_TIMEOUT: "500ms",
      COUNTRY_HEADER: "x-test-country",
      // The sign-in below names this domain; the API accepts sign-ins for its configured domains only.
      SIWE_DOMAINS: "oro.example",
      LOG_LEVEL: "info",
    },
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the API did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    server?.stdout?.on("data", onData);
    server?.stderr?.on("data", onData);
    server?.on("exit", (code) => reject(new Error(`the API exited (${code}):\n${output}`)));
  });
}

async function signIn(): Promise<void> {
  const { nonce, statement } = await api.getSignInNonce();
  expect(statement).toBe(SIGN_IN_STATEMENT);
  const message = [
    "oro.example wants you to sign in with your Ethereum account:",
    account.address,
    "",
    statement,
    "",
    "URI: https://oro.example/",
    "Version: 1",
    "Chain ID: 480",
    `Nonce: ${nonce}`,
    `Issued At: ${new Date().toISOString()}`,
  ].join("\n");
  const session = await api.signIn({ message, signature: await account.signMessage({ message }), address: account.address });
  expect(session.user.address.toLowerCase()).toBe(account.address.toLowerCase());
  token = session.token;
}

beforeAll(async () => {
  baseUrl = await startApi();
  api = createOroApi({ baseUrl, token: () => token, fetch: recordingFetch });
  await signIn();
});

afterAll(() => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const lastAnswer = (pathname: string) => [...answers].reverse().find((answer) => answer.path === pathname);

describe("API module against the real API", () => {
  it("stores the email through POST /api/user/email and reads it back with GET", async () => {
    expect(await api.getEmailSubmitted(account.address)).toBe(false);
    await api.submitEmail(account.address, "  Ana@Example.com ");
    expect(await api.getEmailSubmitted(account.address)).toBe(true);
  });

  it("private routes need the session: without its token the API answers 401", async () => {
    const anonymous = createOroApi({ baseUrl, token: () => null });
    const error = await anonymous.submitEmail(account.address, "ana@example.com").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 401 });
  });

  it("another user's address is refused with 403", async () => {
    const error = await api.getSwapReward(other.address).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 403 });
  });

  it("reads the swap reward: no swap volume yet is Ineligible at 0 USD", async () => {
    expect(await api.getSwapReward(account.address)).toEqual({ rewardStatus: "Ineligible", totalSwapVolumeUsd: 0, minSwapVolumeUsd: 5 });
  });

  it("reads the swap reward's terms without a session: the 5 USD that earns it", async () => {
    const anonymous = createOroApi({ baseUrl, token: () => null });
    expect(await anonymous.getSwapRewardTerms()).toEqual({ minSwapVolumeUsd: 5 });
  });

  it("reads whether the user is in the US (no country header: false)", async () => {
    expect(await api.getIsInUS(account.address)).toBe(false);
  });

  it("returns ORO's price keyed by the lower-case token address", async () => {
    const prices = await api.getTokenPrices([ORO]);
    expect(Object.keys(prices)).toEqual([ORO.toLowerCase()]);
    expect(prices[ORO.toLowerCase()]?.priceUsd).toBeGreaterThan(0);
    expect(typeof prices[ORO.toLowerCase()]?.percentChange24hr).toBe("number");
  });

  it("gets an IDKit request signed by the API for the claim action", async () => {
    const request = await api.getWorldIdRequest(account.address, "claim");
    expect(request.rp_id).toMatch(/^rp_/);
    expect(request.signature).toMatch(/^0x[0-9a-f]+$/i);
    expect(request.expires_at).toBeGreaterThan(request.created_at);
    expect(request.nonce.length).toBeGreaterThan(0);
  });

  it("sends the locale with the lower-case address; Filipino goes as 'tl' and the API stores 'fil'", async () => {
    await api.setNotificationLocale(account.address, "fil");
    expect(lastAnswer("/api/notifications/set_locale")).toMatchObject({ status: 200, body: { locale: "fil" } });
    await api.setNotificationLocale(account.address, "pt-BR");
    expect(lastAnswer("/api/notifications/set_locale")).toMatchObject({ status: 200, body: { locale: "pt" } });
  });

  it("clears the streak cache", async () => {
    await expect(api.clearStreakCache(account.address)).resolves.toBeUndefined();
    expect(lastAnswer("/api/streaks/clear-streak-cache")?.status).toBe(200);
  });

  it("with the indexer down the streak and the reminder fail with the API's 503 codes (the streak keeps the message)", async () => {
    const streakError = await api.getCurrentStreak(account.address, { bypassCache: true }).catch((caught: unknown) => caught);
    expect(streakError).toBeInstanceOf(ApiRequestError);
    expect(streakError).toMatchObject({ status: 503, code: "STREAK_UNAVAILABLE" });
    expect((streakError as Error).message.length).toBeGreaterThan(0);
    const reminderError = await api.scheduleClaimReminder(account.address, "en").catch((caught: unknown) => caught);
    expect(reminderError).toMatchObject({ status: 503, code: "REMINDER_UNAVAILABLE" });
  });
});
