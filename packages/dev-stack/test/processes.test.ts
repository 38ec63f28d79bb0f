import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, isPortFree } from "../src/ports.js";
import { descendantsOf, processAlive } from "../src/proc.js";
import { groupAlive, startService, type Service } from "../src/processes.js";
import { waitForHttpOk } from "../src/ready.js";

const started: Service[] = [];
afterEach(async () => {
  for (const service of started.splice(0)) await service.stop(1_000);
});

function node(script: string, name = "node"): Service {
  const service = startService(name, process.execPath, ["-e", script]);
  started.push(service);
  return service;
}

describe("processes", () => {
  it("stops the whole process group, grandchildren included, even one that ignores SIGTERM", async () => {
    // The child starts a grandchild that ignores SIGTERM, then prints both PIDs.
    const service = node(`
      const { spawn } = require("node:child_process");
      const grandchild = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
      console.log("pids", process.pid, grandchild.pid);
      setInterval(() => {}, 1000);
    `);
    await service.waitForOutput(/pids \d+ \d+/, 20_000);
    const [, parent, grandchild] = /pids (\d+) (\d+)/.exec(service.output()) ?? [];
    expect(Number(parent)).toBe(service.pid);
    expect(processAlive(Number(grandchild))).toBe(true);
    expect(descendantsOf(process.pid)).toContain(Number(grandchild));

    await service.stop(1_000);
    expect(service.running()).toBe(false);
    expect(processAlive(Number(grandchild))).toBe(false);
    expect(groupAlive(service.pid)).toBe(false);
  });

  it("waits for a log line, and fails at once with the output when the process exits first", async () => {
    const ready = node(`setTimeout(() => console.log("listening on 1234"), 200); setInterval(() => {}, 1000)`);
    await ready.waitForOutput(/listening on \d+/, 20_000);

    const dying = node(`console.error("boom: missing setting"); process.exit(3)`, "dying");
    const before = Date.now();
    await expect(dying.waitForOutput("never printed", 60_000)).rejects.toThrow(/dying exited \(code 3\)[\s\S]*boom: missing setting/);
    expect(Date.now() - before).toBeLessThan(20_000);
    expect(dying.lastLines(1)).toEqual(["boom: missing setting"]);
  });

  it("waits for an HTTP 200, and stops waiting when the service exits", async () => {
    const port = await freePort();
    const server = node(`
      let ready = false;
      setTimeout(() => { ready = true; }, 300);
      require("node:http").createServer((req, res) => { res.writeHead(ready ? 200 : 503); res.end(); }).listen(${port}, "127.0.0.1");
    `);
    await waitForHttpOk(`http://127.0.0.1:${port}/ready`, 20_000, server);
    expect(await isPortFree(port)).toBe(false);
    await server.stop(1_000);
    expect(await isPortFree(port)).toBe(true);

    const gone = node(`process.exit(1)`, "gone");
    await expect(waitForHttpOk(`http://127.0.0.1:${await freePort()}/`, 60_000, gone)).rejects.toThrow(/gone exited/);
  });

  it("tells a taken port from a free one", async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, "127.0.0.1", () => {
        const address = blocker.address();
        resolve(typeof address === "object" && address ? address.port : 0);
      }),
    );
    expect(await isPortFree(port)).toBe(false);
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    expect(await isPortFree(port)).toBe(true);
  });
});
