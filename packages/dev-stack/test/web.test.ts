import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveWeb, type WebServer } from "../src/web.js";

describe("serveWeb (the production build as Caddy serves it)", () => {
  let api: http.Server;
  let web: WebServer;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), "oro-web-"));
    await writeFile(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
    api = http.createServer((request, response) => response.end(`api ${request.url ?? ""}`));
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    web = await serveWeb({ distDir: dist, apiUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}` });
  });
  afterAll(async () => {
    await web.close();
    await new Promise<void>((resolve) => api.close(() => resolve()));
    await rm(dist, { recursive: true, force: true });
  });

  it("sends the invite path to the API's preview (/api/invite, query kept), /api to the API, anything else to the app", async () => {
    const text = async (url: string) => (await fetch(`${web.url}${url}`)).text();
    expect(await text("/invite?referralCode=ABC&referredBy=a%20b&lang=es")).toBe("api /api/invite?referralCode=ABC&referredBy=a%20b&lang=es");
    expect(await text("/api/stats")).toBe("api /api/stats");
    expect(await text("/?referralCode=ABC")).toContain("<title>app</title>");
    expect(await text("/invites")).toContain("<title>app</title>");
  });
});
