import { once } from "node:events";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { worldRequestBody } from "../src/services/notifications/transport.js";
import { claimReminderLocalisations } from "../src/services/notifications/messages.js";
import { SEND_NOTIFICATION_PATH, standInForWorld, type StandIn } from "../scripts/world-stand-in.js";

// The reminders bench's stand-in for World must refuse what World's send-notification route refuses (developer-portal
// web/api/v2/minikit/send-notification): a looser one would let the bench count reminders World never sends.
const appId = "app_0123456789abcdef";
const body = JSON.stringify(
  worldRequestBody(appId, [{ jobId: "job", address: `0x${"1".padStart(40, "0")}`, locale: "en" }], {
    localisations: claimReminderLocalisations(),
    miniAppPath: `worldapp://mini-app?app_id=${appId}&path=%2F`,
  }),
);

let world: StandIn;
let port: number;

beforeAll(async () => {
  world = standInForWorld({ reminders: 10, answerMs: 0, tooManyEvery: 1_000 });
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
    expect(await post({ "content-type": "application/json", authorization: "Bearer api_key" })).toBe(200);
    expect(world.received).toBe(1);
  });

  it("acts on nothing whose body never fully arrived (its sender died after the headers), and keeps serving", async () => {
    const before = { received: world.received, requests: world.requests };
    const cut = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: SEND_NOTIFICATION_PATH,
      headers: { "content-type": "application/json", authorization: "Bearer api_key", "content-length": Buffer.byteLength(body) },
    });
    cut.on("error", () => {});
    cut.write(body.slice(0, 40));
    await new Promise((resolve) => setTimeout(resolve, 50));
    cut.destroy();
    while (world.cutOff === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(world.received).toBe(before.received);
    expect(world.requests).toBe(before.requests);
    expect(await post({ "content-type": "application/json", authorization: "Bearer api_key" })).toBe(200);
  });

  it("refuses another path or method, and a body World's schema refuses", async () => {
    const wrongPath = await fetch(`http://127.0.0.1:${port}/api/v1/minikit/send-notification`, { method: "POST", body });
    expect(wrongPath.status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}${SEND_NOTIFICATION_PATH}`)).status).toBe(404);
    expect(await post({ authorization: "Bearer api_key" }, JSON.stringify({ ...JSON.parse(body), extra: 1 }))).toBe(400);
  });
});
