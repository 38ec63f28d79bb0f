import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { DEV_PROFILE } from "@oro/clients";
import { freePort } from "./ports.js";
import { startService, type Service } from "./processes.js";
import { waitForHttpOk } from "./ready.js";
import { binOf, workspacePaths } from "./workspace.js";
import { inheritedEnv } from "./env.js";

/** The web app's build-time settings for the local chain (read by apps/web/src/env.ts). */
function webEnv(rpcUrl: string, apiBaseUrl: string): Record<string, string> {
  return { VITE_CHAIN_ID: String(DEV_PROFILE.chainId), VITE_RPC_URL: rpcUrl, VITE_API_BASE_URL: apiBaseUrl };
}

export interface BuildWebOptions {
  outDir: string;
  rpcUrl: string;
  /** Empty (the default): the API is reached on the page's own origin, under /api, as in production. */
  apiBaseUrl?: string;
  logFile?: string;
  /** Called with the process as soon as it is spawned (so that a caller can stop it while it starts). */
  onStarted?: (service: Service) => void;
  timeoutMs?: number;
}

/** A production build of the web app (`vite build`, no type check) for the local chain, into `outDir`. */
export async function buildWeb(options: BuildWebOptions): Promise<void> {
  const { web } = workspacePaths();
  const service = startService("web build", binOf(web, "vite"), ["build", "--outDir", options.outDir, "--emptyOutDir"], {
    cwd: web,
    // ORO_REHEARSAL: the web build refuses the development chain in production mode unless asked for a rehearsal.
    env: { ...inheritedEnv(), NODE_ENV: "production", ORO_REHEARSAL: "true", ...webEnv(options.rpcUrl, options.apiBaseUrl ?? "") },
    ...(options.logFile ? { logFile: options.logFile } : {}),
  });
  options.onStarted?.(service);
  const timer = setTimeout(() => void service.stop(), options.timeoutMs ?? 180_000);
  const { code, signal } = await service.exited;
  clearTimeout(timer);
  if (code !== 0) {
    throw new Error(`the web build ${signal ? `was ended by ${signal}` : `failed (code ${code})`}:\n${service.lastLines(30).join("\n")}`);
  }
}

export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeWebOptions {
  /** The built app (index.html and assets/). */
  distDir: string;
  /** Where /api/* is forwarded (the API's origin). */
  apiUrl: string;
  port?: number;
  host?: string;
}

/** The content type of a built web file, by extension: one table for every server of a build (here, the tests, the bench). */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".wasm": "application/wasm",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/**
 * The built file a URL path names inside `folder` (a folder's own index.html for a folder), or undefined: nothing
 * there, a path that leaves the folder, or one that does not decode. The production server and the web's browser
 * tests serve their builds through it.
 */
export async function fileAt(folder: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const file = path.join(folder, path.normalize(decoded));
  if (file !== folder + path.sep && !file.startsWith(folder + path.sep)) return undefined;
  const info = await stat(file).catch(() => undefined);
  if (info?.isFile()) return file;
  if (!info?.isDirectory()) return undefined;
  const page = path.join(file, "index.html");
  return (await stat(page).catch(() => undefined))?.isFile() ? page : undefined;
}

function proxy(request: http.IncomingMessage, response: http.ServerResponse, target: URL, pathAndQuery = request.url): void {
  const upstream = http.request(
    {
      hostname: target.hostname,
      port: target.port,
      method: request.method,
      path: pathAndQuery,
      headers: { ...request.headers, host: target.host, "x-forwarded-host": request.headers.host ?? "" },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on("error", () => {
    if (!response.headersSent) response.writeHead(502, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: "API_UNREACHABLE", message: `the API at ${target.origin} does not answer` }));
  });
  request.pipe(upstream);
}

/**
 * Serves a production build the way its hosting would: files from `distDir` (index.html for every other path,
 * as the app routes on the client) and /api forwarded to the API, so the app calls the API on its own origin;
 * /invite (the share link's path) is the API's /api/invite, as deploy/Caddyfile rewrites it.
 */
export async function serveWeb(options: ServeWebOptions): Promise<WebServer> {
  const distDir = path.resolve(options.distDir);
  const target = new URL(options.apiUrl);
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort(host));
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return proxy(request, response, target);
    // An invite link's path: the API answers its preview (og tags) and sends a person on to the app, as Caddy does.
    if (url.pathname === "/invite") return proxy(request, response, target, `/api/invite${url.search}`);
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405).end();
      return;
    }
    void (async () => {
      const file = (await fileAt(distDir, url.pathname)) ?? path.join(distDir, "index.html");
      const extension = path.extname(file);
      const info = await stat(file).catch(() => undefined);
      if (!info) {
        response.writeHead(404, { "content-type": "text/plain" }).end("not built");
        return;
      }
      response.writeHead(200, {
        "content-type": CONTENT_TYPES[extension] ?? "application/octet-stream",
        "content-length": info.size,
        // Hashed assets never change; the page itself must be asked for again.
        "cache-control": url.pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
      });
      if (request.method === "HEAD") response.end();
      else createReadStream(file).pipe(response);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface WebDevServer {
  url: string;
  port: number;
  service: Service;
  stop(): Promise<void>;
}

export interface WebDevOptions {
  rpcUrl: string;
  /** Where the dev server forwards /api. */
  apiUrl: string;
  port?: number;
  logFile?: string;
  /** Called with the process as soon as it is spawned (so that a caller can stop it while it starts). */
  onStarted?: (service: Service) => void;
  timeoutMs?: number;
}

/** The Vite dev server (hot reload, development build) with /api forwarded to `apiUrl`. */
export async function startWebDev(options: WebDevOptions): Promise<WebDevServer> {
  const { web } = workspacePaths();
  const port = options.port ?? (await freePort());
  const service = startService("web", binOf(web, "vite"), ["--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: web,
    env: { ...inheritedEnv(), WEB_PORT: String(port), API_URL: options.apiUrl, ...webEnv(options.rpcUrl, "") },
    ...(options.logFile ? { logFile: options.logFile } : {}),
  });
  options.onStarted?.(service);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttpOk(`${url}/`, options.timeoutMs ?? 120_000, service);
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { url, port, service, stop: () => service.stop() };
}
