import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { CONTENT_TYPES, fileAt } from "@oro/dev-stack";
import { build } from "vite";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the harness pages (test/harness/*.html) and the app (/) are served from one build. */
    harnessOrigin: string;
  }
}

const root = join(import.meta.dirname, "..", "..");

/**
 * One bundled build of the app and its harness pages, instead of a dev server per test file: Chromium then loads a
 * few chunks per page rather than hundreds of modules. A development build, as the dev server served them: the
 * pages read import.meta.env.DEV (the development chain by default, the development wallet, the debug page's
 * mode), and React's development build keeps StrictMode's double effects.
 */
async function buildHarness(outDir: string): Promise<void> {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = "development";
  try {
    // The app (/) alone first, with its own chunks: built together with the harness pages, styles.css (which
    // index.html links and the pages import) went to the app's inlined stylesheet only, and the pages had none.
    await build({ root, mode: "development", logLevel: "warn", build: { outDir, emptyOutDir: true } });
    await build({
      root,
      mode: "development",
      logLevel: "warn",
      build: {
        outDir,
        emptyOutDir: false,
        rolldownOptions: {
          input: ["claim-states", "referral-states"].map((page) => join(root, "test", "harness", `${page}.html`)),
          // The app's one initial chunk (vite.config.ts) is made for index.html: here it would join the two pages.
          output: { codeSplitting: true },
        },
      },
    });
  } finally {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  }
}

/**
 * The harness on 127.0.0.1 at a port the system picks, for every test file of this run (`inject("harnessOrigin")`).
 * The build starts with the first request, so a run without a browser test does not pay for it; it is made once,
 * in a temporary folder, and removed at the end. Paths without a file get index.html (the app routes them itself),
 * as the dev server did; /api has no server behind it (the tests that sign in answer it with page.route).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), "oro-web-harness-"));
  let built: Promise<void> | undefined;
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    built ??= buildHarness(outDir);
    await built;
    const { pathname } = new URL(request.url ?? "/", "http://harness");
    const wantsPage = (request.headers.accept ?? "").includes("text/html") && !pathname.startsWith("/api/");
    const path = (await fileAt(outDir, pathname)) ?? (wantsPage ? join(outDir, "index.html") : undefined);
    if (!path) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": CONTENT_TYPES[extname(path)] ?? "application/octet-stream" });
    createReadStream(path).pipe(response);
  };
  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      console.error("harness build failed:", error);
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    });
  });
  // Kept-alive connections stay open until Chromium closes them (closed at teardown): Node's 5 s idle close can
  // cross a request that Chromium sends on the same socket, and a module script lost that way renders nothing.
  server.keepAliveTimeout = 0;
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  project.provide("harnessOrigin", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
    await built?.catch(() => undefined);
    await rm(outDir, { recursive: true, force: true });
  };
}
