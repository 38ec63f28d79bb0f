import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { freePort } from "./helpers/ports.js";

// Issue 19: rate limits hold across replicas. Two API processes' worth of apps (one database) count in one Redis
// (Debian's redis-server, started here); without it each counts alone. With the store down the API keeps answering.
const redisServer = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((file) => existsSync(file));
if (!redisServer) console.log("redis-server is not installed: the shared rate-limit tests are skipped (apt-get install redis-server)");


const BUDGET = 6;
/** One client alternating between the replicas; the statuses it got, in order. */
async function alternate(replicas: TestApp[], requests: number, client: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const replica = replicas[i % replicas.length];
    if (!replica) throw new Error("no replica");
    const response = await replica.app.inject({ method: "GET", url: "/api/auth/nonce", remoteAddress: client });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe.skipIf(!redisServer)("rate limits across replicas (Redis)", () => {
  let db: TestDatabase;
  let redis: ChildProcess | undefined;
  let shared: TestApp[] = [];
  let alone: TestApp[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    redis = spawn(redisServer ?? "redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    // Ready when it answers PING on its port.
    for (;;) {
      const ready = await new Promise<boolean>((resolve) => {
        const socket = new Socket();
        socket.once("error", () => resolve(false));
        socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
        socket.once("data", (data: Buffer) => {
          socket.destroy();
          resolve(data.toString().startsWith("+PONG"));
        });
      });
      if (ready) break;
      if (redis.exitCode !== null) throw new Error("redis-server exited");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const env = { RATE_LIMIT_PER_IP: String(BUDGET), RATE_LIMIT_REDIS_URL: `redis://127.0.0.1:${port}` };
    shared = [await createTestApp({ testDatabase: db, env }), await createTestApp({ testDatabase: db, env })];
    alone = [
      await createTestApp({ testDatabase: db, env: { RATE_LIMIT_PER_IP: String(BUDGET) } }),
      await createTestApp({ testDatabase: db, env: { RATE_LIMIT_PER_IP: String(BUDGET) } }),
    ];
  });
  afterAll(async () => {
    for (const replica of [...shared, ...alone]) await replica.close();
    if (redis && redis.exitCode === null) redis.kill("SIGKILL");
    await db.drop();
  });

  it("a client alternating between two replicas gets one budget, not two", async () => {
    const statuses = await alternate(shared, BUDGET + 2, "203.0.113.10");
    expect(statuses.slice(0, BUDGET).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(BUDGET)).toEqual([429, 429]);
  });

  it("without the shared store each replica counts alone (the embedded default): two budgets", async () => {
    const statuses = await alternate(alone, BUDGET * 2, "203.0.113.11");
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it("with the store down the API keeps answering (not rate limited) instead of failing", async () => {
    const client = "203.0.113.12";
    expect((await alternate(shared, BUDGET + 1, client)).at(-1)).toBe(429);
    const exited = new Promise((resolve) => redis?.once("exit", resolve));
    redis?.kill("SIGKILL");
    await exited;
    const statuses = await alternate(shared, 4, client);
    expect(statuses).toEqual([200, 200, 200, 200]);
  });
});
