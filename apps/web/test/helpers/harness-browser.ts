import { chromiumLaunchOptions } from "@oro/dev-stack/chromium";
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page, type Request } from "playwright-core";
import { inject } from "vitest";

export interface HarnessBrowser {
  /** The origin of the run's harness build (test/helpers/harness-server.ts): the app and test/harness/. */
  origin: string;
  browser: Browser;
  /** A page whose requests `settled` follows. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

/** The requests in flight of each page opened with harness.newPage(), and a wait until there are none. */
const inFlight = new WeakMap<Page, { size(): number; drained(): Promise<void> }>();

function followRequests(page: Page): void {
  const pending = new Set<Request>();
  let waiters: (() => void)[] = [];
  const done = (request?: Request) => {
    if (request) pending.delete(request);
    else pending.clear();
    if (pending.size > 0) return;
    for (const wake of waiters) wake();
    waiters = [];
  };
  page.on("request", (request) => pending.add(request));
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  page.on("close", () => done());
  inFlight.set(page, {
    size: () => pending.size,
    drained: () => (pending.size === 0 ? Promise.resolve() : new Promise((wake) => waiters.push(wake))),
  });
}

/** What each watched page saw, for waitForScreen()'s report when its screen does not come. */
const seen = new WeakMap<Page, { lines: string[]; unanswered: Set<Request> }>();

/** Records a page's failed requests, error responses, console messages and errors, and its requests with no answer. */
export function watch(page: Page): void {
  if (seen.has(page)) return;
  const lines: string[] = [];
  const started = Date.now();
  const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const unanswered = new Set<Request>();
  seen.set(page, { lines, unanswered });
  page.on("request", (request) => unanswered.add(request));
  page.on("response", (response) => {
    unanswered.delete(response.request());
    if (response.status() >= 400) lines.push(`${at()} ${response.status()} ${response.url()}`);
  });
  page.on("requestfailed", (request) => {
    unanswered.delete(request);
    lines.push(`${at()} failed ${request.url()}: ${request.failure()?.errorText ?? "?"}`);
  });
  page.on("console", (message) => lines.push(`${at()} console.${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => lines.push(`${at()} page error: ${error.message}`));
}

/**
 * Waits for `locator` (a harness page's screen); if it does not come, the error says what the page saw: requests
 * that failed or were never answered, error responses, console messages, and the document as it is.
 */
export async function waitForScreen(page: Page, locator: Locator): Promise<void> {
  try {
    await locator.waitFor();
  } catch (error) {
    const { lines, unanswered } = seen.get(page) ?? { lines: ["(page not watched: no requests or console recorded)"], unanswered: [] };
    const state = await page
      .evaluate(() => ({
        readyState: document.readyState,
        moduleRan: "__oroQueryClient" in window,
        scripts: [...document.scripts].map((script) => script.src || "(inline)"),
        resources: performance.getEntriesByType("resource").map((entry) => `${entry.name} ${Math.round(entry.duration)} ms`),
        body: document.body.innerHTML.slice(0, 500),
      }))
      .catch((failure: unknown) => `(page not readable: ${String(failure)})`);
    // Chromium drops every request in flight, loopback included, when the machine's network interfaces change: a
    // Docker engine starting or stopping containers beside the tests (the production rehearsal's drills) does that.
    const networkChanged = lines.some((line) => line.includes("ERR_NETWORK_CHANGED"))
      ? ["(ERR_NETWORK_CHANGED: the machine's network interfaces changed while the page loaded, e.g. containers started or stopped beside the tests)"]
      : [];
    const report = [
      `harness page ${page.url()} did not show ${String(locator)}:`,
      ...networkChanged,
      ...lines,
      ...[...unanswered].map((request) => `never answered: ${request.method()} ${request.url()}`),
      `document: ${JSON.stringify(state, null, 1)}`,
    ].join("\n  ");
    throw new Error(`${(error as Error).message}\n${report}`, { cause: error });
  }
}

/** In the page: the route's screen is there (not its loading placeholder) and the app's query client is idle. */
function appIdle(): boolean {
  const queries = (window as unknown as { __oroQueryClient?: { isFetching(): number; isMutating(): number } }).__oroQueryClient;
  return !document.querySelector(".page-loading") && queries?.isFetching() === 0 && queries.isMutating() === 0 && document.fonts.status === "loaded";
}

/** Chromium for the tests that drive the harness pages, served from the run's one build. */
export async function startHarnessBrowser(): Promise<HarnessBrowser> {
  const origin = inject("harnessOrigin");
  const browser = await chromium.launch(chromiumLaunchOptions());
  // The first request of the run builds the harness (tens of seconds on a loaded machine): made here, under the
  // hook's budget, so that no test's own waits pay for it.
  const warmUp = await browser.newPage();
  await warmUp.goto(`${origin}/test/harness/claim-states.html`, { waitUntil: "load", timeout: 110_000 });
  await warmUp.close();
  return {
    origin,
    browser,
    async newPage(options) {
      const page = await browser.newPage(options);
      watch(page);
      followRequests(page);
      return page;
    },
    async close() {
      await browser.close();
    },
  };
}

/**
 * Waits until the harness page has loaded what it shows and come to rest: the route's screen (not its loading
 * placeholder), every query and mutation of the app's query client done, no request in flight (a lazy part's chunk,
 * a language's strings), the fonts, and every animation that ends (a modal sliding in) ended; all of it still so two
 * frames later, as a lazy part asks for the next only once drawn.
 */
export async function settled(page: Page): Promise<void> {
  const requests = inFlight.get(page);
  if (!requests) throw new Error("settled() follows pages opened with harness.newPage()");
  for (;;) {
    await page.waitForFunction(appIdle);
    await requests.drained();
    await page.evaluate(() => {
      const ending = document.getAnimations().filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime));
      return Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
    });
    await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    if (requests.size() === 0 && (await page.evaluate(appIdle))) return;
  }
}
