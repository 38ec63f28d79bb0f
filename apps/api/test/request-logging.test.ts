import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { unconnectedDatabase } from "../src/db/database.js";
import { testConfig } from "./helpers/app.js";

/** The API built with a pino logger at `level` writing into an array (no database: it never connects). */
async function appLoggingAt(level: string) {
  const lines: { msg: string; reqId?: string; responseTime?: number; req?: { url: string }; res?: { statusCode: number } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      callback();
    },
  });
  const app = await buildApp({ config: testConfig(), database: unconnectedDatabase(), logger: { level, stream } });
  await app.ready();
  return { app, lines };
}

describe("request logs", () => {
  it("at info: a server error is logged with its request id, status and time; an ordinary answer is not", async () => {
    const { app, lines } = await appLoggingAt("info");
    try {
      expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
      // No database answers: /api/ready is a 503.
      const ready = await app.inject({ method: "GET", url: "/api/ready", headers: { "x-request-id": "probe-1" } });
      expect(ready.statusCode).toBe(503);
      const requestLines = lines.filter((line) => line.req);
      expect(requestLines).toHaveLength(1);
      expect(requestLines[0]).toMatchObject({ msg: "request failed", reqId: "probe-1", req: { url: "/api/ready" }, res: { statusCode: 503 } });
      expect(requestLines[0]?.responseTime).toBeTypeOf("number");
    } finally {
      await app.close();
    }
  });

  it("at debug: every request", async () => {
    const { app, lines } = await appLoggingAt("debug");
    try {
      await app.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": "probe-2" } });
      const requestLines = lines.filter((line) => line.reqId === "probe-2");
      expect(requestLines).toHaveLength(2);
      expect(requestLines[0]).toMatchObject({ msg: "incoming request", req: { url: "/api/health" } });
      expect(requestLines[1]).toMatchObject({ msg: "request completed", res: { statusCode: 200 } });
      expect(requestLines[1]?.responseTime).toBeTypeOf("number");
    } finally {
      await app.close();
    }
  });
});
