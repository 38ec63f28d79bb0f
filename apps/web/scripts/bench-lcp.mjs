/* global window, document, MutationObserver, requestAnimationFrame -- these callbacks run inside the page */
// How fast a new visitor sees the first screen: `pnpm --filter @oro/web bench`.
// Makes a production build of the web app into a temporary folder (the local rehearsal settings, as `pnpm start`
// builds it), serves it on a free 127.0.0.1 port the way the deployment does (gzip, immutable hashed assets,
// index.html for every path, /api on the same origin), then opens / in Chromium, signed out with a cold cache
// at 390×844, and reads the Largest Contentful Paint with a PerformanceObserver. Two profiles: unthrottled, and
// slow 4G (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, through the DevTools protocol) with the CPU slowed
// down 4×. BENCH_RUNS sets the runs per profile (default 7), BENCH_LOCALE the browser's language (default en-US).
// No API runs: every /api call (and the chain's RPC) is answered 502 at once, as the proxy does while the API is
// down, so the figures also show that the first screen does not wait for it.
// The LCP is the static first paint (index.html's own markup); the app's own screen comes later, so its first paint
// (the frame in which React's signed-out screen was first painted, from the Element Timing API) is a figure of its own.
// Prints the median and the worst run beside the reference figures, with the machine and its load.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { extname, join, normalize, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { BENCH_REFERENCES } from "@oro/clients";
import { buildWeb, CONTENT_TYPES, recordBenchFigure } from "@oro/dev-stack";
import { chromiumLaunchOptions } from "@oro/dev-stack/chromium";
import { chromium } from "playwright-core";

const VIEWPORT = { width: 390, height: 844 };
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 7) || 7);
/** The browser's language (BENCH_LOCALE, default en-US): the first screen's language follows it. */
const locale = process.env.BENCH_LOCALE ?? "en-US";

/**
 * The figures measured before and the goals (TARGETS.md; Chromium, production build): the LCP of /, and the app's own
 * screen painted, held to World's guideline for a first load.
 */
const { web: TARGETS } = BENCH_REFERENCES;
const PROFILES = [
  { name: "unthrottled", reference: TARGETS.lcpUnthrottledReference, goal: null, appScreen: { reference: null, goal: null }, throttle: null },
  {
    name: "slow 4G + 4× CPU",
    reference: TARGETS.lcpSlow4gReference,
    goal: TARGETS.lcpSlow4gMax,
    appScreen: { reference: TARGETS.appScreenSlow4gReference, goal: TARGETS.worldFirstLoadMax },
    // Bytes per second for the DevTools protocol.
    throttle: { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8, cpuRate: 4 },
  },
];

const COMPRESSIBLE = new Set([".html", ".js", ".css", ".json", ".svg", ".txt", ".wasm"]);

const load = () => loadavg().map((value) => value.toFixed(2)).join(" / ");
const ms = (value) => `${Math.round(value).toLocaleString("en-US")} ms`;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * The built files, read once and gzipped once (the deployment's Caddy compresses on the fly; doing it ahead keeps
 * this server's own work out of the figures). Until `files` is set, every request gets 503.
 */
let files;
function loadFiles(distDir) {
  const table = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const body = readFileSync(path);
        const extension = extname(name);
        const key = `/${path.slice(distDir.length + 1).split(sep).join("/")}`;
        table.set(key, { body, gzip: COMPRESSIBLE.has(extension) ? gzipSync(body) : null, type: CONTENT_TYPES[extension] ?? "application/octet-stream" });
      }
    }
  };
  walk(distDir);
  return table;
}

/** Requests seen per run: what the first screen asks for, and how it was answered. */
let requestLog = [];

const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost");
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
    requestLog.push(`${request.method} ${url.pathname} → 502`);
    response.writeHead(502, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: "API_UNREACHABLE", message: "no API runs during the benchmark" }));
    return;
  }
  if (url.pathname === "/rpc") {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      let methods = "?";
      try {
        const parsed = JSON.parse(body);
        methods = [...new Set((Array.isArray(parsed) ? parsed : [parsed]).map((call) => call.method))].join("+");
      } catch {
        // not JSON-RPC
      }
      requestLog.push(`${request.method} /rpc ${methods} (chain) → 502`);
      response.writeHead(502).end();
    });
    return;
  }
  if (!files) {
    response.writeHead(503).end();
    return;
  }
  const file = files.get(normalize(url.pathname)) ?? files.get("/index.html");
  const gzip = file.gzip && /\bgzip\b/.test(request.headers["accept-encoding"] ?? "");
  const body = gzip ? file.gzip : file.body;
  response.writeHead(200, {
    "content-type": file.type,
    "content-length": body.length,
    vary: "Accept-Encoding",
    ...(gzip ? { "content-encoding": "gzip" } : {}),
    // As deploy/Caddyfile: hashed assets never change, the page revalidates.
    "cache-control": url.pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
  });
  response.end(request.method === "HEAD" ? undefined : body);
});
await new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(0, "127.0.0.1", resolve);
});
const origin = `http://127.0.0.1:${server.address().port}`;

const scratch = mkdtempSync(join(tmpdir(), "oro-bench-lcp-"));
let browser;
async function cleanUp() {
  await browser?.close().catch(() => undefined);
  server.closeAllConnections();
  server.close();
  rmSync(scratch, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    void cleanUp().then(() => process.exit(130));
  });
}

/**
 * Records every LCP candidate (with what the element was, as it may be gone later), when React mounted, and when the
 * app's signed-out screen was first painted: its elements are marked for the Element Timing API as they are inserted
 * (the observer runs before the frame that paints them), and the first frame that painted any of their text counts.
 */
function observeInPage() {
  const record = { lcp: [], fcp: null, appAt: null, appScreenPaint: null };
  window.__benchLcp = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const element = entry.element;
      const text = (element?.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      // Gone when React has already replaced the static first paint by the time this runs.
      const name = element ? `<${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? ` class="${element.className}"` : ""}>` : "(an element removed since: the static first paint's)";
      record.lcp.push({ time: entry.startTime, size: entry.size, element: text ? `${name} “${text}”` : name });
    }
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "first-contentful-paint") record.fcp = entry.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.identifier !== "app-screen") continue;
      const paintedAt = entry.renderTime || entry.loadTime;
      if (record.appScreenPaint === null || paintedAt < record.appScreenPaint) record.appScreenPaint = paintedAt;
    }
  }).observe({ type: "element", buffered: true });
  new MutationObserver((_, observer) => {
    // The static first paint (index.html) carries data-first-paint; the app's own layout does not.
    if (record.appAt === null && document.querySelector(".app:not([data-first-paint])")) record.appAt = performance.now();
    const screen = document.querySelector(".app:not([data-first-paint]) .claim--signedOut");
    if (screen) {
      for (const element of [screen, ...screen.querySelectorAll("*")]) element.setAttribute("elementtiming", "app-screen");
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

async function measureOnce(profile) {
  // A new context per run: its own cache, cookies, storage and connections (a new visitor, cold cache).
  const context = await browser.newContext({ viewport: VIEWPORT, locale });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const cdp = await context.newCDPSession(page);
    if (profile.throttle) {
      const { latency, downloadThroughput, uploadThroughput, cpuRate } = profile.throttle;
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency, downloadThroughput, uploadThroughput });
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuRate });
    }
    await page.addInitScript(observeInPage);
    requestLog = [];
    await page.goto(`${origin}/`, { waitUntil: "load", timeout: 60_000 });
    // The app's signed-out screen is up (React mounted); two frames later its paint has been reported.
    await page.locator(".app:not([data-first-paint]) .claim--signedOut").waitFor({ timeout: 60_000 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 200)))));
    const record = await page.evaluate(() => window.__benchLcp);
    if (errors.length > 0) throw new Error(`the page failed: ${errors.join("; ")}`);
    const last = record.lcp.at(-1);
    if (!last) throw new Error("no largest-contentful-paint entry");
    if (record.appScreenPaint === null) throw new Error("the app's signed-out screen was shown but no paint of it was reported (Element Timing)");
    return { lcp: last.time, element: last.element, candidates: record.lcp.length, fcp: record.fcp, appAt: record.appAt, appScreenPaint: record.appScreenPaint, requests: [...requestLog] };
  } finally {
    await context.close();
  }
}

try {
  const outDir = join(scratch, "dist");
  console.log(`Building the web app (production, local rehearsal settings) into ${outDir} …`);
  const buildAt = performance.now();
  // Chain calls go to this server's /rpc, which answers 502: the signed-out screen should make none.
  await buildWeb({ outDir, rpcUrl: `${origin}/rpc`, logFile: join(scratch, "build.log") });
  const buildSeconds = (performance.now() - buildAt) / 1000;
  files = loadFiles(outDir);
  const html = files.get("/index.html");
  console.log(`Serving it on ${origin} (gzip; index.html ${(html.body.length / 1024).toFixed(1)} KiB, ${(html.gzip.length / 1024).toFixed(1)} KiB gzip).`);

  browser = await chromium.launch(chromiumLaunchOptions());
  const results = [];
  for (const profile of PROFILES) {
    const loadBefore = load();
    const measured = [];
    for (let run = 1; run <= runs; run += 1) {
      const result = await measureOnce(profile);
      measured.push(result);
      console.log(
        `  ${profile.name} #${run}: LCP ${ms(result.lcp)} (${result.element}), first paint ${ms(result.fcp ?? NaN)}, app in the page at ${ms(result.appAt ?? NaN)}, ` +
          `its screen painted at ${ms(result.appScreenPaint)}`,
      );
    }
    results.push({ profile, measured, loadBefore, loadAfter: load() });
  }

  /** One row of the table: a figure's runs beside its reference and goal. */
  const row = (label, values, reference, goal, loads) => {
    const worst = Math.max(...values);
    return [
      label,
      ms(median(values)),
      ms(worst),
      ms(Math.min(...values)),
      reference === null ? "—" : ms(reference),
      goal === null ? "—" : `≤ ${ms(goal)}`,
      goal === null ? "—" : median(values) <= goal ? (worst <= goal ? "yes" : "median only") : "NO",
      loads,
    ];
  };
  const rows = [
    [`/ for a new visitor (signed out, cold cache, 390×844, ${locale})`, "median", "worst", "best", "reference", "goal", "met", "load before / after (1 min)"],
    ...results.flatMap(({ profile, measured, loadBefore, loadAfter }) => {
      const loads = `${loadBefore.split(" / ")[0]} / ${loadAfter.split(" / ")[0]}`;
      return [
        row(`LCP (the static first paint), ${profile.name} (${measured.length} runs)`, measured.map((result) => result.lcp), profile.reference, profile.goal, loads),
        row(`the app's own screen painted, ${profile.name}`, measured.map((result) => result.appScreenPaint), profile.appScreen.reference, profile.appScreen.goal, loads),
      ];
    }),
  ];
  for (const { profile, measured } of results) {
    const lcp = median(measured.map((result) => result.lcp));
    recordBenchFigure({ bench: "@oro/web", figure: `LCP of /, new visitor, ${profile.name} (median)`, measured: ms(lcp), target: profile.goal === null ? `reference ${ms(profile.reference)}` : `≤ ${ms(profile.goal)}`, met: profile.goal === null ? null : lcp <= profile.goal });
    const { reference, goal } = profile.appScreen;
    const painted = median(measured.map((result) => result.appScreenPaint));
    recordBenchFigure({
      bench: "@oro/web",
      figure: `the app's own screen painted, new visitor, ${profile.name} (median)`,
      measured: ms(painted),
      target: goal === null ? "" : `≤ ${ms(goal)} (World's first-load guideline; seen before: ${ms(reference)})`,
      met: goal === null ? null : painted <= goal,
    });
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log();
  console.log(`${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), load average ${load()} (1/5/15 min), Node.js ${process.version}, ${browser.version()}; the build took ${buildSeconds.toFixed(1)} s.`);
  for (const [index, row] of rows.entries()) {
    console.log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("   ")}`);
    if (index === 0) console.log(`  ${widths.map((width) => "─".repeat(width)).join("   ")}`);
  }
  console.log();
  for (const { profile, measured } of results) {
    const elements = [...new Set(measured.map((result) => result.element))];
    console.log(`${profile.name}: LCP element ${elements.join(" or ")}; first paint median ${ms(median(measured.map((result) => result.fcp ?? NaN)))}, app in the page median ${ms(median(measured.map((result) => result.appAt ?? NaN)))}, its screen painted median ${ms(median(measured.map((result) => result.appScreenPaint)))}.`);
  }
  const requests = [...new Set(results.flatMap(({ measured }) => measured.flatMap((result) => result.requests)))];
  console.log(`No API ran: calls were answered 502 at once (while measured: ${requests.length > 0 ? requests.join(", ") : "none made"}).`);
  await cleanUp();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await cleanUp();
  process.exit(1);
}
