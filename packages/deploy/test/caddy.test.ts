import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect, createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRepoFile, repoRoot } from "../src/compose.ts";

// deploy/Caddyfile, run by the Caddy binary when one is installed (Debian's `caddy`): the one public port serves
// the static build with the app's routes, and hands /api to the API.
const caddy = ["/usr/bin/caddy", "/usr/local/bin/caddy"].find((file) => existsSync(file));
if (!caddy) console.log("caddy is not installed: the Caddyfile checks are skipped (apt-get install caddy runs them)");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe.skipIf(!caddy)(`deploy/Caddyfile (${caddy ?? "skipped"})`, () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "oro-caddy-"));
  let api: Server | undefined;
  let proxy: ChildProcess | undefined;
  let origin = "";
  let output = "";
  const accessLog = path.join(scratch, "access.log");

  beforeAll(async () => {
    const site = path.join(scratch, "srv");
    mkdirSync(path.join(site, "assets"), { recursive: true });
    writeFileSync(path.join(site, "index.html"), "<!doctype html><title>ORO</title>");
    writeFileSync(path.join(site, "assets", "index-abc123.js"), "console.log('oro')");
    // A stand-in API on every local address (Caddy may resolve localhost to ::1 or 127.0.0.1).
    // It reads the whole request before answering, and cuts off a request that has not arrived within a second,
    // as the API does (10 s there).
    api = createServer({ requestTimeout: 1_000, headersTimeout: 1_000, connectionsCheckingInterval: 200 }, (request, response) => {
      request.resume();
      request.once("end", () => {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ path: request.url, forwardedFor: request.headers["x-forwarded-for"] ?? null }));
      });
    });
    await new Promise<void>((resolve) => api?.listen(0, resolve));
    const apiPort = (api.address() as AddressInfo).port;
    const port = await freePort();
    const metricsPort = await freePort();
    // The production file with only its addresses changed: the API service name, the port and the site folder.
    const config = readRepoFile("deploy/Caddyfile")
      .replace(":8080 {", `:${port} {`)
      .replace("name api", "name localhost")
      .replace("port 3001", `port ${apiPort}`)
      .replace("root * /srv", `root * ${site}`)
      // The production bounds, shortened so that the stalled clients below are cut off within the test.
      .replace("read_header 10s", "read_header 1s")
      .replace("read_body 10s", "read_body 1s")
      .replace(":9180 {", `:${metricsPort} {`)
      .replace("output file /var/log/caddy/access.log", `output file ${accessLog}`);
    expect(config).toContain(`port ${apiPort}`);
    expect(config).toContain("read_body 1s");
    const file = path.join(scratch, "Caddyfile");
    writeFileSync(file, config);
    // A trusted range that does not hold 127.0.0.1, where the test's requests come from: they are clients.
    proxy = spawn(caddy ?? "caddy", ["run", "--config", file, "--adapter", "caddyfile"], {
      env: { PATH: process.env.PATH, HOME: scratch, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: scratch, TRUSTED_PROXIES: "10.0.0.0/8" },
    });
    proxy.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    proxy.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proxy.exitCode !== null) throw new Error(`caddy exited: ${output}`);
      const ready = await fetch(`${origin}/healthz`).then((response) => response.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`caddy did not answer within 60 s: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 90_000);

  afterAll(async () => {
    if (proxy?.pid !== undefined && proxy.exitCode === null) {
      const exited = new Promise((resolve) => proxy?.once("exit", resolve));
      process.kill(proxy.pid, "SIGTERM");
      await exited;
    }
    await new Promise((resolve) => (api ? api.close(resolve) : resolve(undefined)));
    rmSync(scratch, { recursive: true, force: true });
  });

  it("is a valid configuration", async () => {
    const { stdout, stderr } = await promisify(execFile)(caddy ?? "caddy",
      ["validate", "--config", path.join(repoRoot, "deploy/Caddyfile"), "--adapter", "caddyfile"],
      { env: { PATH: process.env.PATH, HOME: scratch, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: scratch } });
    expect(stdout + stderr).toContain("Valid configuration");
  });

  it("hands /api to the API with the path and the client's address", async () => {
    const response = await fetch(`${origin}/api/health?x=1`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { path: string; forwardedFor: string | null };
    expect(body.path).toBe("/api/health?x=1");
    expect(body.forwardedFor).toBe("127.0.0.1");
  });

  it("replaces the X-Forwarded-For of a client outside TRUSTED_PROXIES with its own address (a client cannot forge it)", async () => {
    const response = await fetch(`${origin}/api/health`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(((await response.json()) as { forwardedFor: string }).forwardedFor).toBe("127.0.0.1");
  });

  it("keeps the X-Forwarded-For of the proxies TRUSTED_PROXIES names, adding their address (the configuration Caddy runs)", async () => {
    const { stdout } = await promisify(execFile)(caddy ?? "caddy", ["adapt", "--config", path.join(repoRoot, "deploy/Caddyfile"), "--adapter", "caddyfile"], {
      env: { PATH: process.env.PATH, HOME: scratch, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: scratch, TRUSTED_PROXIES: "10.20.0.0/16 192.0.2.0/24" },
    });
    expect(stdout).toContain('"trusted_proxies":["10.20.0.0/16","192.0.2.0/24"]');
    const untrusted = await promisify(execFile)(caddy ?? "caddy", ["adapt", "--config", path.join(repoRoot, "deploy/Caddyfile"), "--adapter", "caddyfile"], {
      env: { PATH: process.env.PATH, HOME: scratch, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: scratch },
    });
    expect(untrusted.stdout).not.toContain('"trusted_proxies":["');
  });

  it("writes one JSON line per request to its access log (the client, the URI, the status)", async () => {
    await fetch(`${origin}/api/health?logged=1`);
    const deadline = Date.now() + 5_000;
    let lines: Array<{ request?: { uri?: string; remote_ip?: string }; status?: number }> = [];
    while (Date.now() < deadline) {
      lines = existsSync(accessLog) ? readFileSync(accessLog, "utf8").trim().split("\n").map((line) => JSON.parse(line) as (typeof lines)[number]) : [];
      if (lines.some((line) => line.request?.uri === "/api/health?logged=1")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(lines.find((line) => line.request?.uri === "/api/health?logged=1")).toMatchObject({ status: 200, request: { remote_ip: "127.0.0.1" } });
  });

  it("hands an invite link's path to the API's preview (/invite → /api/invite, the query kept); people reach the app from it", async () => {
    const response = await fetch(`${origin}/invite?referralCode=K7QX3MZP&referredBy=maria.s&lang=es`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { path: string }).path).toBe("/api/invite?referralCode=K7QX3MZP&referredBy=maria.s&lang=es");
    // Only that path: anything else under it is the app's.
    expect(await (await fetch(`${origin}/invites`)).text()).toContain("<title>ORO</title>");
  });

  it("serves the app's routes with index.html (revalidated) and hashed assets as immutable", async () => {
    for (const route of ["/", "/share", "/stats/holders"]) {
      const response = await fetch(`${origin}${route}`);
      expect(response.status, route).toBe(200);
      expect(await response.text(), route).toContain("<title>ORO</title>");
      expect(response.headers.get("cache-control"), route).toBe("no-cache");
    }
    const asset = await fetch(`${origin}/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  // Caddy bounds the headers. A body it streams to the API is bounded by the API's own request timeout (the API's
  // connection-limits test), but Caddy 2.6 keeps no read deadline on a proxied body, so the client's connection to
  // Caddy itself stays open (seen here: still open after 30 s); the README says so.
  it("cuts off clients that stall in their headers", async () => {
    const { port } = new URL(origin);
    for (const stalled of ["GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"]) {
      const socket = connect({ host: "127.0.0.1", port: Number(port) });
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.on("error", () => undefined);
      socket.write(stalled);
      await closed;
      expect(socket.destroyed).toBe(true);
    }
  }, 30_000);
});
