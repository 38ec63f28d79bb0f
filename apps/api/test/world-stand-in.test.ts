import { once } from "node:events";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { worldRequestBody } from "../src/services/notifications/transport.js";
import { claimReminderLocalisations } from "../src/services/notifications/messages.js";
import { DEVICE_LANGUAGES, SEND_NOTIFICATION_PATH, standInForWorld, WORLD_RETRY_BACKOFF_MS, worldApiKey, type StandIn } from "../scripts/world-stand-in.js";

// The reminders bench's stand-in for World must refuse what World's send-notification route refuses (developer-portal
// web/api/v2/minikit/send-notification): a looser one would let the bench count reminders World never sends.
const appId = "app_0123456789abcdef";
const body = JSON.stringify(
  worldRequestBody(appId, [{ jobId: "job", address: `0x${"1".padStart(40, "0")}`, locale: "en" }], {
    localisations: claimReminderLocalisations(),
    miniAppPath: `worldapp://mini-app?app_id=${appId}&path=%2F`,
  }),
);

const apiKey = worldApiKey("key_1", "secret");
const withKey = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
let world: StandIn;
let port: number;

beforeAll(async () => {
  world = standInForWorld({ reminders: 10, answerMs: 0, throttledEvery: 1_000, appId, apiKey });
  world.server.listen(0, "127.0.0.1");
  await once(world.server, "listening");
  port = (world.server.address() as AddressInfo).port;
});
afterAll(async () => {
  world.server.closeAllConnections();
  await new Promise((resolve) => world.server.close(resolve));
});

async function post(headers: Record<string, string>, text = body): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}${SEND_NOTIFICATION_PATH}`, { method: "POST", headers, body: text });
  await response.arrayBuffer();
  return response.status;
}

describe("the stand-in for World's send-notification API", () => {
  it("answers 401 to a request without an API key, as World does, and counts nothing as sent", async () => {
    expect(await post({ "content-type": "application/json" })).toBe(401);
    expect(await post({ "content-type": "application/json", authorization: "Bearer" })).toBe(401);
    expect(world.received).toBe(0);
    expect(await post(withKey)).toBe(200);
    expect(world.received).toBe(1);
  });

  it("acts on nothing whose body never fully arrived (its sender died after the headers), and keeps serving", async () => {
    const before = { received: world.received, requests: world.requests };
    const cut = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: SEND_NOTIFICATION_PATH,
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}`, "content-length": Buffer.byteLength(body) },
    });
    cut.on("error", () => {});
    // The stand-in runs in this process: the sender dies once the stand-in has the request's headers. (A 50 ms pause
    // stood for that: on a loaded machine the timer and the socket became due in the same turn of the event loop, the
    // timer ran first, the request never began, and the wait below never ended.)
    const begun = once(world.server, "request");
    cut.write(body.slice(0, 40));
    await begun;
    cut.destroy();
    while (world.cutOff === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(world.received).toBe(before.received);
    expect(world.requests).toBe(before.requests);
    expect(await post(withKey)).toBe(200);
  });

  it("refuses another path or method, and a body World's schema refuses", async () => {
    const wrongPath = await fetch(`http://127.0.0.1:${port}/api/v1/minikit/send-notification`, { method: "POST", body });
    expect(wrongPath.status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}${SEND_NOTIFICATION_PATH}`)).status).toBe(404);
    expect(await post(withKey, JSON.stringify({ ...JSON.parse(body), extra: 1 }))).toBe(400);
    expect(await post(withKey, "{not json")).toBe(500);
  });

  it("refuses a key World does not know, a key of another app and a wrong secret, as World's key checks do", async () => {
    const before = world.received;
    const as = (key: string) => ({ "content-type": "application/json", authorization: `Bearer ${key}` });
    expect(await post(as("api_key"))).toBe(404);
    expect(await post(as(worldApiKey("key_2", "secret")))).toBe(404);
    expect(await post(as(worldApiKey("key_1", "wrong")))).toBe(403);
    const otherApp = JSON.stringify({ ...JSON.parse(body), app_id: "app_another", mini_app_path: "worldapp://mini-app?app_id=app_another&path=%2F" });
    expect(await post(withKey, otherApp)).toBe(403);
    expect(world.received).toBe(before);
  });

  it("delivers to each user in their World App's language, and to none whose language the request lacks", async () => {
    const addresses = Array.from({ length: DEVICE_LANGUAGES.length }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    const withAll = JSON.stringify({ ...JSON.parse(body), wallet_addresses: addresses });
    const before = { received: world.received, notDelivered: world.notDelivered };
    const answer = await fetch(`http://127.0.0.1:${port}${SEND_NOTIFICATION_PATH}`, { method: "POST", headers: withKey, body: withAll });
    expect(((await answer.json()) as { result: { sent: boolean }[] }).result.every((entry) => entry.sent)).toBe(true);
    expect(world.received - before.received).toBe(addresses.length);
    // The seven languages the API sent before: the users whose World App is in any of World's other twelve got nothing.
    const seven = JSON.stringify({
      ...JSON.parse(withAll),
      localisations: claimReminderLocalisations().filter((entry) => ["en", "es", "id", "ja", "ko", "pt", "th"].includes(entry.language)),
    });
    const partial = (await (await fetch(`http://127.0.0.1:${port}${SEND_NOTIFICATION_PATH}`, { method: "POST", headers: withKey, body: seven })).json()) as {
      result: { walletAddress: string; sent: boolean; reason?: string }[];
    };
    expect(partial.result.filter((entry) => !entry.sent)).toHaveLength(12);
    expect(world.notDelivered - before.notDelivered).toBe(12);
  });

  it("refuses an unverified app's request past 40 notifications in its window, and answers a silent upstream's request 500, delivered", async () => {
    const unverified = standInForWorld({ reminders: 100, answerMs: 0, throttledEvery: 1_000, silentEvery: 2, silentAnswerMs: 300, verified: false, appId, apiKey });
    unverified.server.listen(0, "127.0.0.1");
    await once(unverified.server, "listening");
    const url = `http://127.0.0.1:${(unverified.server.address() as AddressInfo).port}${SEND_NOTIFICATION_PATH}`;
    const to = (from: number, count: number) =>
      JSON.stringify({ ...JSON.parse(body), wallet_addresses: Array.from({ length: count }, (_, i) => `0x${(from + i).toString(16).padStart(40, "0")}`) });
    try {
      const refused = await fetch(url, { method: "POST", headers: withKey, body: to(1, 41) });
      expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([400, "unverified_app_limit_reached"]);
      expect((await fetch(url, { method: "POST", headers: withKey, body: to(1, 30) })).status).toBe(200);
      // The second request World passes on finds its upstream silent: a 500 after World's tries, though it delivered.
      const sentAt = Date.now();
      const silent = await fetch(url, { method: "POST", headers: withKey, body: to(31, 10) });
      expect(silent.status).toBe(500);
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(250);
      expect(unverified.arrivals[35]).toBe(1);
      expect((await fetch(url, { method: "POST", headers: withKey, body: to(41, 1) })).status).toBe(400);
    } finally {
      unverified.server.closeAllConnections();
      await new Promise((resolve) => unverified.server.close(resolve));
    }
  });

  it("answers a request World's upstream throttles as World does: a 500 once World's retries are over (never a 429), nothing sent", async () => {
    // developer-portal send-notification: its upstream's 429, after its own retries, becomes a 500 for the caller.
    expect(WORLD_RETRY_BACKOFF_MS).toBe(153_300);
    const throttled = standInForWorld({ reminders: 10, answerMs: 0, throttledEvery: 1, throttledAnswerMs: 400, appId, apiKey });
    throttled.server.listen(0, "127.0.0.1");
    await once(throttled.server, "listening");
    try {
      const sentAt = Date.now();
      const response = await fetch(`http://127.0.0.1:${(throttled.server.address() as AddressInfo).port}${SEND_NOTIFICATION_PATH}`, {
        method: "POST",
        headers: withKey,
        body,
      });
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(350);
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ code: "internal_server_error", attribute: "notification" });
      expect(throttled.throttled).toBe(1);
      expect(throttled.received).toBe(0);
    } finally {
      throttled.server.closeAllConnections();
      await new Promise((resolve) => throttled.server.close(resolve));
    }
  });
});
