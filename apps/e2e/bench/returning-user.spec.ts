import type { CDPSession, Frame } from "@playwright/test";
import { cpus, loadavg } from "node:os";
import { BENCH_REFERENCES } from "@oro/clients";
import { recordBenchFigure } from "@oro/dev-stack";
import { expect, test } from "../support/fixtures.js";

/**
 * The returning user (shared/TARGETS.md, "Web"): a verified user with a stored session and the browser cache of an
 * earlier visit opens the app on slow 4G (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) with the CPU slowed
 * down 4×, against the running API and chain. Measured from the mini app's navigation start (World App's
 * relaunch) to the ready slider or the running countdown, BENCH_RUNS times (default 5; 1 in the smoke run), with
 * where the time went: the HTML, the scripts, the API calls and the chain reads (the iframe's resource timings).
 */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5) || 5);
const GOAL_MS = BENCH_REFERENCES.web.returningUserReadyMax;
const REFERENCE = { medianMs: BENCH_REFERENCES.web.returningUserReference.median, range: BENCH_REFERENCES.web.returningUserReference.range };
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };

/** Runs in the mini app's frame from its first script on: when the slider or a countdown with a time first shows. */
const MARK_READY = () => {
  const ready = () =>
    document.querySelector('[role="slider"]') !== null || /\d\d:\d\d:\d\d/.test(document.querySelector('[role="timer"]')?.textContent ?? "");
  const mark = () => {
    if ((window as unknown as { __oroReadyAt?: number }).__oroReadyAt === undefined && ready()) (window as unknown as { __oroReadyAt?: number }).__oroReadyAt = performance.now();
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, characterData: true });
};

interface Run {
  readyMs: number;
  html: number;
  scripts: number;
  api: number;
  chain: number;
  requests: number;
  fromCache: number;
}

/** Where the time of one launch went, from the frame's own timings (ms from its navigation start). */
async function measure(frame: Frame): Promise<Run> {
  return frame.evaluate(() => {
    const readyAt = (window as unknown as { __oroReadyAt?: number }).__oroReadyAt ?? Number.NaN;
    const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    const resources = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((entry) => entry.startTime <= readyAt);
    const span = (entries: PerformanceResourceTiming[]) => (entries.length === 0 ? 0 : Math.max(...entries.map((entry) => entry.responseEnd)) - Math.min(...entries.map((entry) => entry.startTime)));
    const path = (entry: PerformanceResourceTiming) => new URL(entry.name).pathname;
    const chain = resources.filter((entry) => entry.initiatorType === "fetch" && !path(entry).startsWith("/api/") && !/\.(js|css|json|wasm)$/.test(path(entry)));
    return {
      readyMs: readyAt,
      html: navigation ? navigation.responseEnd : 0,
      scripts: span(resources.filter((entry) => /\.js$/.test(path(entry)))),
      api: span(resources.filter((entry) => path(entry).startsWith("/api/"))),
      chain: span(chain),
      requests: resources.length + 1,
      fromCache: resources.filter((entry) => entry.transferSize === 0).length,
    };
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const ms = (value: number) => `${Math.round(value).toLocaleString("en-US")} ms`;

test("returning, verified user on slow 4G with 4× CPU: the ready slider or the countdown", async ({ sim, page }) => {
  await page.addInitScript(MARK_READY);
  await sim.open();
  await sim.selectWallet("alice-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  // The earlier visit: everything the app loads is in the browser's cache now.
  await sim.relaunch();
  await expect(sim.app.getByRole("slider").or(sim.app.getByRole("timer"))).toBeVisible({ timeout: 60_000 });

  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const runs: Run[] = [];
  try {
    const miniApp = () => page.frames().find((frame) => frame !== page.mainFrame() && frame.url().startsWith("http"));
    for (let run = 0; run < RUNS; run += 1) {
      // The launch before this one is marked, so that its figures are never read for this one.
      await miniApp()?.evaluate(() => ((window as unknown as { __oroStale?: boolean }).__oroStale = true));
      await sim.page.locator("#relaunch").click();
      let launched: Frame | undefined;
      await expect
        .poll(
          async () => {
            launched = miniApp();
            return (await launched?.evaluate(() => ((window as unknown as { __oroStale?: boolean }).__oroStale ? null : ((window as unknown as { __oroReadyAt?: number }).__oroReadyAt ?? null))).catch(() => null)) ?? null;
          },
          { timeout: 60_000, intervals: [50] },
        )
        .not.toBeNull();
      if (!launched) throw new Error("the mini app's frame is not there");
      runs.push(await measure(launched));
    }
  } finally {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  }

  const ready = runs.map((run) => run.readyMs);
  const lines = [
    `returning user, slow 4G + 4× CPU, ${RUNS} relaunch${RUNS === 1 ? "" : "es"} (Chromium, ${cpus().length} cores, load ${loadavg().map((value) => value.toFixed(2)).join(" / ")})`,
    "  run   ready      html     scripts   api       chain     requests (cached)",
    ...runs.map((run, index) =>
      `  ${String(index + 1).padEnd(5)} ${ms(run.readyMs).padEnd(10)} ${ms(run.html).padEnd(9)} ${ms(run.scripts).padEnd(9)} ${ms(run.api).padEnd(9)} ${ms(run.chain).padEnd(9)} ${run.requests} (${run.fromCache})`,
    ),
    `  median ${ms(median(ready))}, worst ${ms(Math.max(...ready))}; goal ≤ ${ms(GOAL_MS)} (${median(ready) <= GOAL_MS ? "met" : "NOT met"}); before: median ${ms(REFERENCE.medianMs)} (${REFERENCE.range})`,
    "  (html: navigation start to the end of index.html; scripts, api, chain: first start to last end of each kind before ready)",
  ];
  console.log(lines.join("\n"));
  recordBenchFigure({ bench: "@oro/e2e", figure: "returning user: ready slider or countdown, slow 4G + 4× CPU (median)", measured: ms(median(ready)), target: `≤ ${ms(GOAL_MS)}`, met: median(ready) <= GOAL_MS });
  // A bench reports; it fails only when it could not measure.
  expect(ready.every((value) => Number.isFinite(value) && value > 0)).toBe(true);
});
