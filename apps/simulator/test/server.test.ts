import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHumans } from "../src/humans.js";
import { startSimulator, type RunningSimulator } from "../src/index.js";

/** A stand-in mini app and API on free ports; the chain is absent (what needs it answers without it). */
let miniApp: Server;
let api: Server;
let simulator: RunningSimulator;
let origin = "";
let apiHost = "";
const apiCalls: { url: string; host: string | undefined }[] = [];
/** What the simulator told World's stand-in (the API's development outbox) about its devices, latest last. */
const toldWorld: { users: { address: string; language: string; notifications: boolean }[] }[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  miniApp = createServer((req, res) => {
    if (req.url?.endsWith(".js")) {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end("console.log('app')");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html><head><title>ORO</title><script type="module" src="/src/main.js"></script></head><body>${req.url ?? ""}</body></html>`);
  });
  api = createServer((req, res) => {
    apiCalls.push({ url: req.url ?? "", host: req.headers.host });
    if (req.url === "/api/dev/world-app" && req.method === "POST") {
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk.toString()));
      req.on("end", () => {
        toldWorld.push(JSON.parse(text) as (typeof toldWorld)[number]);
        res.writeHead(204).end();
      });
      return;
    }
    if (req.url?.startsWith("/api/dev/notifications")) {
      res.writeHead(200, { "content-type": "application/json" });
      const heidi = createHumans().find((human) => human.id === "heidi")?.wallets[0]?.account.address.toLowerCase() ?? "";
      res.end(JSON.stringify({ notifications: [
        { id: "1", address: "0xabc", language: "ja", title: "ORO", message: "受け取れます", miniAppPath: "/", createdAt: new Date(0).toISOString(), sent: true, reason: null },
        { id: "2", address: heidi, language: "pt", title: "Sua sequência acaba logo", message: "${username}, resgate seu ORO hoje.", miniAppPath: "/", createdAt: new Date(0).toISOString(), sent: true, reason: null },
        { id: "3", address: heidi, language: "es_419", title: "", message: "", miniAppPath: "/", createdAt: new Date(0).toISOString(), sent: false, reason: "No localisation for the user's World App language: es_419" },
      ] }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: req.url }));
  });
  const [miniAppUrl, apiUrl] = [await listen(miniApp), await listen(api)];
  apiHost = new URL(apiUrl).host;
  simulator = await startSimulator({ port: 0, host: "127.0.0.1", miniAppUrl, chainRpcUrl: "http://127.0.0.1:9", apiUrl, chainId: 31337 });
  origin = new URL(simulator.url).origin;
});

afterAll(async () => {
  await simulator.close();
  miniApp.close();
  api.close();
});

describe("startSimulator", () => {
  it("serves the simulator page at its URL, and sends a person at the bare origin there", async () => {
    expect(simulator.url).toBe(`${origin}/__simulator/`);
    const page = await fetch(simulator.url);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain('<iframe id="mini-app"');
    const bare = await fetch(`${origin}/?referralCode=ABCD2345`, { redirect: "manual", headers: { "sec-fetch-dest": "document" } });
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("/__simulator/?referralCode=ABCD2345");
  });

  it("proxies the mini app with the bridge first in <head>, and its other files untouched", async () => {
    const html = await (await fetch(`${origin}/?referredBy=alice`, { headers: { "sec-fetch-dest": "iframe" } })).text();
    expect(html).toContain("<body>/?referredBy=alice</body>");
    expect(html.indexOf('<script src="/__simulator/bridge.js"></script>')).toBeLessThan(html.indexOf("/src/main.js"));
    expect(await (await fetch(`${origin}/src/main.js`)).text()).toBe("console.log('app')");
  });

  it("forwards /api to the API with the API's host", async () => {
    const answer = await fetch(`${origin}/api/streaks/current?userAddress=0x1`);
    expect(await answer.json()).toEqual({ path: "/api/streaks/current?userAddress=0x1" });
    expect(apiCalls.find((call) => call.url === "/api/streaks/current?userAddress=0x1")?.host).toBe(apiHost);
  });

  it("gives the mini app World App's launch properties for the selected wallet and language, and no key", async () => {
    const before = await (await fetch(`${simulator.url}bridge.js`)).text();
    expect(before).toContain('"preferred_language":"en"');
    const state = (await (await fetch(`${simulator.url}state`)).json()) as { humans: { wallets: { id: string; address: string }[] }[] };
    const second = state.humans.flatMap((human) => human.wallets).find((wallet) => wallet.id === "bob-second");
    if (!second) throw new Error("no bob-second");
    const select = await fetch(`${simulator.url}select`, { method: "POST", body: JSON.stringify({ walletId: "bob-second", storage: { "oro.session": "alice's" } }) });
    expect(await select.json()).toEqual({ storage: {} });
    expect(select.headers.get("set-cookie")).toContain("Max-Age=0");
    await fetch(`${simulator.url}settings`, { method: "POST", body: JSON.stringify({ language: "th" }) });
    const after = await (await fetch(`${simulator.url}bridge.js`)).text();
    expect(after).toContain(`"wallet_address":"${second.address}"`);
    expect(after).toContain('"preferred_language":"th"');
    expect(after).not.toMatch(/0x[0-9a-fA-F]{64}/);
    // Back on Alice's phone, her storage returns.
    const back = await fetch(`${simulator.url}select`, { method: "POST", body: JSON.stringify({ walletId: "alice-main", storage: {} }) });
    expect(await back.json()).toEqual({ storage: { "oro.session": "alice's" } });
  });

  it("switches a human's credential to expire in 10 days (from the chain's clock) and back; a reinstall forgets the phone's storage and cookie", async () => {
    type Humans = { humans: { id: string; credentialExpiresSoon: boolean }[] };
    const lena = async () => ((await (await fetch(`${simulator.url}state`)).json()) as Humans).humans.find((human) => human.id === "lena");
    expect(await lena()).toMatchObject({ credentialExpiresSoon: false });
    await fetch(`${simulator.url}humans`, { method: "POST", body: JSON.stringify({ humanId: "lena", credentialExpiresSoon: true }) });
    expect(await lena()).toMatchObject({ credentialExpiresSoon: true });
    const log = ((await (await fetch(`${simulator.url}state`)).json()) as { log: { summary: string }[] }).log;
    const expiry = Date.parse(/expires (\S+)$/.exec(log[0]?.summary ?? "")?.[1] ?? "");
    expect(Math.abs(expiry - (Date.now() + 10 * 86_400_000))).toBeLessThan(60_000);
    await fetch(`${simulator.url}humans`, { method: "POST", body: JSON.stringify({ humanId: "lena", credentialExpiresSoon: false }) });
    expect(await lena()).toMatchObject({ credentialExpiresSoon: false });

    // Carol's phone keeps its storage across wallet switches until the mini app is reinstalled on it.
    await fetch(`${simulator.url}select`, { method: "POST", body: JSON.stringify({ walletId: "carol-main", storage: {} }) });
    await fetch(`${simulator.url}select`, { method: "POST", body: JSON.stringify({ walletId: "alice-main", storage: { "oro.worldId4": "carol's" } }) });
    await fetch(`${simulator.url}select`, { method: "POST", body: JSON.stringify({ walletId: "carol-main", storage: {} }) });
    const reinstall = await fetch(`${simulator.url}reinstall`, { method: "POST", body: "{}" });
    expect(reinstall.headers.get("set-cookie")).toContain("Max-Age=0");
    await fetch(`${simulator.url}select`, { method: "POST", body: JSON.stringify({ walletId: "alice-main", storage: {} }) });
    const back = await fetch(`${simulator.url}select`, { method: "POST", body: JSON.stringify({ walletId: "carol-main", storage: {} }) });
    expect(await back.json()).toEqual({ storage: {} });
  });

  it("answers MiniKit's username queries with the simulated usernames", async () => {
    const state = (await (await fetch(`${simulator.url}state`)).json()) as { humans: { wallets: { username: string; address: string }[] }[] };
    const bob = state.humans.flatMap((human) => human.wallets).find((wallet) => wallet.username === "bob");
    if (!bob) throw new Error("no bob");
    const answer = await fetch(`${simulator.url}usernames/query`, { method: "POST", body: JSON.stringify({ addresses: [bob.address, "0x0000000000000000000000000000000000000001"] }) });
    expect(await answer.json()).toEqual([
      { address: bob.address.toLowerCase(), username: "bob", profile_picture_url: null },
      { address: "0x0000000000000000000000000000000000000001", username: null, profile_picture_url: null },
    ]);
    expect(await (await fetch(`${simulator.url}usernames/bob`)).json()).toMatchObject({ username: "bob", address: bob.address.toLowerCase() });
  });

  it("lists the API's outbox, refuses bad controls with a reason, and names an unreachable chain", async () => {
    // As World App shows each: ${username} becomes the wallet's username (an address it does not know keeps it).
    expect(await (await fetch(`${simulator.url}notifications`)).json()).toMatchObject({
      notifications: [
        { language: "ja", message: "受け取れます", username: null, shown: { title: "ORO", message: "受け取れます" } },
        { language: "pt", message: "${username}, resgate seu ORO hoje.", username: "heidi", shown: { title: "Sua sequência acaba logo", message: "heidi, resgate seu ORO hoje." } },
        // One World did not deliver: nothing on the phone, World's reason in the list.
        { language: "es_419", username: "heidi", shown: null, sent: false, reason: "No localisation for the user's World App language: es_419" },
      ],
    });
    const badTime = await fetch(`${simulator.url}chain/advance`, { method: "POST", body: JSON.stringify({ seconds: -5 }) });
    expect(badTime.status).toBe(400);
    const badTask = await fetch(`${simulator.url}owner`, { method: "POST", body: JSON.stringify({ task: "amount-per-mint", amount: "lots" }) });
    expect(badTask.status).toBe(400);
    const chain = await fetch(`${simulator.url}chain`);
    expect(chain.status).toBe(500);
    expect(((await chain.json()) as { error: string }).error).toContain("127.0.0.1:9");
  });

  it("offers World's 19 notification languages and some it lacks as the device's, and tells World's stand-in each wallet's", async () => {
    const { languages } = (await (await fetch(`${simulator.url}state`)).json()) as { languages: string[] };
    expect(languages).toEqual(expect.arrayContaining(["en", "en_GB", "es_419", "fr", "de", "zh_CN", "zh_TW", "hi", "nl", "fil"]));
    expect(languages).toHaveLength(19 + 3);
    expect((await fetch(`${simulator.url}settings`, { method: "POST", body: JSON.stringify({ language: "xx" }) })).status).toBe(400);
    expect((await fetch(`${simulator.url}settings`, { method: "POST", body: JSON.stringify({ language: "fr" }) })).status).toBe(200);
    const told = toldWorld.at(-1)?.users ?? [];
    expect(told.length).toBe(createHumans().flatMap((human) => human.wallets).length);
    // Each wallet is its own phone: only the one in use is now set to French.
    const active = (await (await fetch(`${simulator.url}state`)).json()) as { activeWalletId: string; humans: { wallets: { id: string; address: string }[] }[] };
    const activeAddress = active.humans.flatMap((human) => human.wallets).find((wallet) => wallet.id === active.activeWalletId)?.address.toLowerCase();
    expect(told.filter((user) => user.language === "fr").map((user) => user.address)).toEqual([activeAddress]);
    expect(told.every((user) => /^0x[0-9a-f]{40}$/.test(user.address))).toBe(true);
    // Nobody has allowed the app's notifications yet: World would deliver them nothing.
    expect(told.some((user) => user.notifications)).toBe(false);
    await fetch(`${simulator.url}settings`, { method: "POST", body: JSON.stringify({ language: "en" }) });
  });

  it("answers a bridge message with the event MiniKit waits for", async () => {
    const answer = await fetch(`${simulator.url}command`, {
      method: "POST",
      body: JSON.stringify({ message: { command: "share", version: 1, payload: { text: "Join me", url: "https://example.org" } }, approved: true }),
    });
    expect(await answer.json()).toMatchObject({ answer: { event: "miniapp-share", payload: { status: "success" } } });
    const state = (await (await fetch(`${simulator.url}state`)).json()) as { shares: { text: string }[]; log: { summary: string }[] };
    expect(state.shares[0]?.text).toBe("Join me");
    expect(state.log[0]?.summary).toBe("share: https://example.org");
  });
});
