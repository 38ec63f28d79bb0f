import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";

// Issue 19's probe: a client that sends complete headers and then stalls in the body held its socket for ever, and
// one address could hold thousands. Both are bounded now; shown over real sockets.
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ connectionLimits: { requestTimeoutMs: 600, idleTimeoutMs: 30_000, perAddress: 3 } });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything the server sent before it closed the socket. */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    socket.once("close", () => resolve(received));
  });
}

describe("connection limits", () => {
  it("cuts off a client that sends its headers and stalls in the body (408, socket closed)", async () => {
    const socket = await open();
    const closed = untilClosed(socket);
    socket.write("POST /api/auth/siwe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("cuts off a client that never finishes its headers", async () => {
    const socket = await open();
    const closed = untilClosed(socket);
    socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    expect(await closed).toMatch(/^HTTP\/1\.1 408/);
  });

  it("refuses a fourth connection from one address while three are open, and serves it again once one closes", async () => {
    const held = [await open(), await open(), await open()];
    // The server counts a socket when it accepts it: a request on each makes sure all three were counted.
    for (const socket of held) socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await Promise.all(held.map((socket) => new Promise((resolve) => socket.once("data", resolve))));
    const fourth = await open();
    const fourthClosed = untilClosed(fourth);
    fourth.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(await fourthClosed).toBe("");
    expect(held.every((socket) => !socket.destroyed)).toBe(true);

    const first = held[0];
    if (!first) throw new Error("no socket");
    const firstClosed = untilClosed(first);
    first.end();
    await firstClosed;
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { connection: "close" } });
    expect(response.status).toBe(200);
    for (const socket of held) socket.destroy();
  });
});
