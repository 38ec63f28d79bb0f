import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileAt, serveWeb, type WebServer } from "../src/web.js";

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

describe("fileAt (the file a URL path names in a build)", () => {
  it("finds files and a folder's page, and nothing outside the build or undecodable", async () => {
    const build = await mkdtemp(path.join(tmpdir(), "oro-build-"));
    try {
      await mkdir(path.join(build, "claim-states"));
      await mkdir(path.join(build, "assets"));
      await writeFile(path.join(build, "index.html"), "root");
      await writeFile(path.join(build, "claim-states", "index.html"), "page");
      await writeFile(path.join(build, "assets", "app 1.js"), "js");
      expect(await fileAt(build, "/assets/app%201.js")).toBe(path.join(build, "assets", "app 1.js"));
      expect(await fileAt(build, "/claim-states/")).toBe(path.join(build, "claim-states", "index.html"));
      expect(await fileAt(build, "/")).toBe(path.join(build, "index.html"));
      // A folder without a page, a missing file, a way out of the build, a broken escape: nothing.
      for (const outside of ["/assets/", "/nope.js", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%E0%A4%A"]) expect(await fileAt(build, outside)).toBeUndefined();
    } finally {
      await rm(build, { recursive: true, force: true });
    }
  });
});
