import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { keepAliveAgents, readAnswer, type HttpAnswer } from "../src/lib/http-client.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

function get(url: string, connectionFor: ReturnType<typeof keepAliveAgents>): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const { client, agent } = connectionFor(url);
    client.get(url, { agent }, (response) => readAnswer(response, resolve, reject)).on("error", reject);
  });
}

describe("kept-alive connections to a peer (the indexer, World)", () => {
  it("are closed by us a second before the peer's announced keep-alive ends, so none is reused as the peer closes it", async () => {
    // The peer says it keeps an idle connection 2 s (its own timer is far longer here, so only we can close it).
    const connections: Socket[] = [];
    server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain", "keep-alive": "timeout=2" });
      response.end("ok");
    });
    server.keepAliveTimeout = 60_000;
    server.on("connection", (socket: Socket) => connections.push(socket));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const connectionFor = keepAliveAgents();

    expect(await get(url, connectionFor)).toEqual({ status: 200, text: "ok" });
    expect(connections).toHaveLength(1);
    const closed = new Promise<string>((resolve) => connections[0]?.once("close", () => resolve("closed by us")));
    // Without an idle timeout of our own the announcement is ignored and the connection stays open for the next call.
    const outcome = await Promise.race([closed, new Promise<string>((resolve) => setTimeout(() => resolve("still open after 10 s"), 10_000))]);
    expect(outcome).toBe("closed by us");
    expect(await get(url, connectionFor)).toEqual({ status: 200, text: "ok" });
    expect(connections).toHaveLength(2);
  }, 20_000);

  it("do not cut a call whose answer is slow (World answers after its own retries): the idle timeout is for unused ones", async () => {
    let calls = 0;
    server = createServer((_request, response) => {
      calls += 1;
      // The second call, on the connection the first left idle (its timeout now 1 s), is answered after 3 s.
      setTimeout(() => {
        response.writeHead(200, { "content-type": "text/plain", "keep-alive": "timeout=2" });
        response.end(`answer ${calls}`);
      }, calls === 1 ? 0 : 3_000);
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const connectionFor = keepAliveAgents();
    expect(await get(url, connectionFor)).toEqual({ status: 200, text: "answer 1" });
    expect(await get(url, connectionFor)).toEqual({ status: 200, text: "answer 2" });
  }, 20_000);
});
