import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The gate asks this server's own /ready (Ponder's): a stand-in answers it here, on the port the gate reads.
let readyNow = false;
let asked = 0;
let server: Server;
let app: Hono;

beforeAll(async () => {
  server = createServer((request, response) => {
    asked += 1;
    response.writeHead(request.url === "/ready" && readyNow ? 200 : 503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.PORT = String((server.address() as AddressInfo).port);
  const { readyGate } = await import("../../src/api/ready-gate");
  app = new Hono();
  app.use("/streaks/*", readyGate);
  app.get("/streaks/:address", (c) => c.json({ address: c.req.param("address") }));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the ready gate", () => {
  it("answers 503 with the error shape while the backfill runs, then passes requests through for good", async () => {
    const before = await app.request("/streaks/0xabc");
    expect(before.status).toBe(503);
    expect(((await before.json()) as { error: string }).error).toMatch(/catching up/);

    readyNow = true;
    const after = await app.request("/streaks/0xabc");
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ address: "0xabc" });

    // Ready stays ready: no more questions asked.
    const count = asked;
    readyNow = false;
    expect((await app.request("/streaks/0xdef")).status).toBe(200);
    expect(asked).toBe(count);
  });
});
