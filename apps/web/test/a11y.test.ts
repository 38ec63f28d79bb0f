// @vitest-environment node
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from "@oro/dev-stack/chromium";
import { settled, startHarnessBrowser, waitForScreen, watch, type HarnessBrowser } from "./helpers/harness-browser";

/**
 * Accessibility in Chromium: axe-core (from npm, injected into the page) over every route and every modal,
 * signed out and signed in, with no serious or critical violation; every control reachable with Tab; no
 * horizontal scrolling at 320 px. Skipped, with a message, where /usr/bin/chromium is missing.
 */
if (!HAS_CHROMIUM) console.warn(`accessibility tests skipped: ${NO_CHROMIUM_MESSAGE}`);
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const ROUTES = ["/", "/stats", "/apps", "/polls", "/share", "/about", "/terms", "/debug"];
/** Harness states: signed out, and signed in (verified, the next claim not yet open). */
const SIGNED = { out: "signedOut", in: "notReady" } as const;

let harness: HarnessBrowser | undefined;
let browser: Browser | undefined;
let origin = "";

async function open(path: string, state: string, extra = "", width = 390): Promise<Page> {
  if (!harness) throw new Error("no browser");
  const page = await harness.newPage({ viewport: { width, height: 844 } });
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto(`${origin}/test/harness/claim-states.html?state=${state}&path=${encodeURIComponent(path)}${extra}`);
  await waitForScreen(page, page.locator(".app__main > *:not(.page-loading)").first());
  await settled(page);
  return page;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (e.g. with a modal open). */
async function seriousViolations(page: Page): Promise<string[]> {
  // Axe reads colours as painted: a modal still fading in (slowly, on a loaded machine) has too little contrast
  // for a moment. Let the animations of every dialog, and of what holds it, finish first.
  await page.evaluate(() => {
    const dialogs = [...document.querySelectorAll("[role=dialog]")];
    const onDialog = (animation: Animation) => {
      const target = (animation.effect as KeyframeEffect | null)?.target;
      return target instanceof Element && dialogs.some((dialog) => target.contains(dialog) || dialog.contains(target));
    };
    return Promise.all(document.getAnimations().filter(onDialog).map((animation) => animation.finished.catch(() => undefined)));
  });
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

/** Every visible, enabled control the user can act on. */
async function controls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [role=slider], [tabindex]:not([tabindex='-1'])";
    const scope = document.querySelector("[role=dialog]") ?? document;
    return [...scope.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => element.offsetParent !== null || getComputedStyle(element).position === "fixed")
      .map((element, index) => {
        element.dataset.a11yId = String(index);
        return String(index);
      });
  });
}

/** Presses Tab until focus comes back round, and answers which controls got focus. */
async function tabThrough(page: Page, limit = 80): Promise<Set<string>> {
  const reached = new Set<string>();
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.a11yId ?? null);
    if (id !== null) reached.add(id);
  }
  return reached;
}

describe.skipIf(!HAS_CHROMIUM)("accessibility in Chromium", () => {
  beforeAll(async () => {
    harness = await startHarnessBrowser();
    ({ origin, browser } = harness);
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
  });

  for (const [signed, state] of Object.entries(SIGNED)) {
    it(`every route signed ${signed}: no serious or critical axe violation, every control reachable by Tab, nothing wider than 320 px`, async () => {
      const problems: string[] = [];
      for (const path of ROUTES) {
        const page = await open(path, state);
        for (const violation of await seriousViolations(page)) problems.push(`${path}: ${violation}`);
        const all = await controls(page);
        const reached = await tabThrough(page);
        const missed = all.filter((id) => !reached.has(id));
        for (const id of missed) problems.push(`${path}: not reachable by Tab: ${await page.locator(`[data-a11y-id="${id}"]`).evaluate((element) => element.outerHTML.slice(0, 120))}`);
        await page.close();

        const narrow = await open(path, state, "", 320);
        const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) problems.push(`${path}: ${overflow} px wider than 320 px`);
        await narrow.close();
      }
      expect(problems.join("\n")).toBe("");
    }, 240_000);
  }

  const modals: { name: string; state: string; path?: string; extra?: string; clock?: string; act: (page: Page) => Promise<void> }[] = [
    { name: "verify info", state: "notVerified", act: (page) => page.getByRole("button", { name: "Not verified?" }).click() },
    { name: "halving teaser", state: "signedOut", path: "/about", extra: "&announce=halving-teaser", clock: "2025-10-10T09:00:00Z", act: () => Promise.resolve() },
    { name: "halving", state: "notReady", path: "/about", extra: "&announce=halving", act: () => Promise.resolve() },
    { name: "referral announcement", state: "signedOut", extra: "&announce=referral", act: () => Promise.resolve() },
    { name: "partner announcement", state: "notReady", path: "/apps", extra: "&announce=partner:oro-arena", act: () => Promise.resolve() },
  ];

  for (const modal of modals) {
    it(`the ${modal.name} modal: no serious or critical violation, its controls reachable by Tab, Escape closes it, fits 320 px`, async () => {
      for (const width of [390, 320]) {
        if (!browser) throw new Error("no browser");
        const page = await browser.newPage({ viewport: { width, height: 844 } });
        watch(page);
        if (modal.clock) await page.clock.setFixedTime(new Date(modal.clock));
        await page.goto(`${origin}/test/harness/claim-states.html?state=${modal.state}&path=${encodeURIComponent(modal.path ?? "/")}${modal.extra ?? ""}`);
        await waitForScreen(page, page.locator(".app__main > *:not(.page-loading)").first());
        await modal.act(page);
        const dialog = page.getByRole("dialog");
        await dialog.waitFor({ timeout: 10_000 });
        expect(await page.getByRole("dialog").count()).toBe(1);
        if (width === 390) {
          expect((await seriousViolations(page)).join("\n")).toBe("");
          const all = await controls(page);
          const reached = await tabThrough(page, 12);
          expect(all.filter((id) => !reached.has(id))).toEqual([]);
        } else {
          const box = await dialog.boundingBox();
          expect(box && box.x >= 0 && box.x + box.width <= 320).toBe(true);
        }
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });
        await page.close();
      }
    }, 60_000);
  }

  it("the after-claim modals (reminder, swap reward) come one at a time and pass axe", async () => {
    if (!browser) throw new Error("no browser");
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${origin}/test/harness/claim-states.html?state=success`);
    // Animations at a tenth of their speed, as on a loaded machine: axe must still see the modals as they settle.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Animation.enable");
    await cdp.send("Animation.setPlaybackRate", { playbackRate: 0.1 });
    const thumb = page.getByRole("slider");
    await thumb.waitFor();
    // The slider works from the keyboard too: End completes it.
    await thumb.focus();
    await page.keyboard.press("End");
    const reminder = page.getByRole("dialog", { name: "Never miss a claim" });
    await reminder.waitFor({ timeout: 10_000 });
    expect((await seriousViolations(page)).join("\n")).toBe("");
    await page.keyboard.press("Escape");
    const swap = page.getByRole("dialog", { name: "You earned a swap reward" });
    await swap.waitFor({ timeout: 10_000 });
    expect(await page.getByRole("dialog").count()).toBe(1);
    expect((await seriousViolations(page)).join("\n")).toBe("");
    await page.close();
  }, 60_000);

  it("a poll is voted on and the vote changed with the keyboard alone", async () => {
    const page = await open("/polls", "notReady");
    const option = page.getByRole("button", { name: /A savings app/ });
    await option.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("[aria-pressed=true]")?.textContent?.includes("A savings app"));
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector("[aria-pressed=true]")?.textContent?.includes("A news app"));
    await page.close();
  }, 30_000);
});
