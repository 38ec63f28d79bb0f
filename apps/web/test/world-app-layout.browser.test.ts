// @vitest-environment node
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from "@oro/dev-stack/chromium";
import { settled, startHarnessBrowser, waitForScreen, type HarnessBrowser } from "./helpers/harness-browser";

/**
 * World App's layout rules for mini apps (WORLD-PLATFORM.md §3, World's mini-app guidelines), measured in Chromium
 * on every screen and modal at 320 and 390 px, on a phone with a notch (World App's safe area: 47 px top, 34 px
 * bottom, as the simulator's phone reports it):
 * - 24 px horizontal padding: nothing of a screen's content (the header's, the page's, a modal's) nearer an edge;
 * - buttons at least 24 px above the bottom bar (the tab bar; in a modal, the iOS home indicator), and above the
 *   keyboard (a shorter viewport with a text field focused); the tab bar's own buttons clear of the home indicator;
 * - nothing interactive under World App's top-right controls (its close and menu capsule);
 * - no alert(), confirm() or prompt() (they do not work in World App on iOS): any call fails the test.
 * Skipped, with a message, where /usr/bin/chromium is missing.
 */
if (!HAS_CHROMIUM) console.warn(`World App layout tests skipped: ${NO_CHROMIUM_MESSAGE}`);

/** World App's rules, in CSS pixels. */
export const WORLD_APP_LAYOUT = {
  padding: 24,
  aboveBottomBar: 24,
  /** The safe area World App reports on a phone with a notch (the simulator's). */
  safeArea: { top: 47, bottom: 34 },
  /**
   * World App's close and menu capsule over the mini app's top-right corner: its width from the right edge, and
   * how far below the top safe area it reaches (conservative: the capsule and its margin).
   */
  topRightControls: { width: 112, below: 56 },
  /** How much of an 844 px screen a phone's keyboard takes. */
  keyboard: 336,
} as const;

const WIDTHS = [320, 390] as const;
const ROUTES = ["/", "/stats", "/apps", "/polls", "/share", "/about", "/terms", "/debug"];
const STATES = ["signedOut", "notReady"] as const;

let harness: HarnessBrowser | undefined;
let origin = "";

/** A page of the harness on a phone `width` wide with a notch; alert(), confirm() and prompt() are recorded. */
async function open(state: string, path: string, width: number, extra = "", harnessPage = "claim-states"): Promise<Page> {
  if (!harness) throw new Error("no browser");
  const page = await harness.newPage({ viewport: { width, height: 844 }, reducedMotion: "reduce" });
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.addInitScript(() => {
    const calls: string[] = [];
    Object.assign(window, { __dialogCalls: calls });
    for (const name of ["alert", "confirm", "prompt"] as const) {
      Object.defineProperty(window, name, { value: (message?: unknown) => void calls.push(`${name}(${String(message)})`) });
    }
  });
  await page.goto(`${origin}/test/harness/${harnessPage}.html?state=${state}&path=${encodeURIComponent(path)}${extra}`);
  await waitForScreen(page, page.locator(".app__main > *:not(.page-loading)").first());
  // World App's safe area, as the app applies it (applySafeAreaInsets) inside World App.
  await page.evaluate(({ top, bottom }) => {
    document.documentElement.style.setProperty("--safe-top", `${top}px`);
    document.documentElement.style.setProperty("--safe-bottom", `${bottom}px`);
  }, WORLD_APP_LAYOUT.safeArea);
  await settled(page);
  return page;
}

/** What breaks World App's rules on the page as it is now (scrolled to its end), one line each. */
async function layoutProblems(page: Page, where: string): Promise<string[]> {
  const problems = await page.evaluate((rules) => {
    const found: string[] = [];
    const width = window.innerWidth;
    const height = window.innerHeight;
    const name = (element: Element) => {
      const label = element.getAttribute("aria-label") ?? element.textContent?.trim().replace(/\s+/g, " ").slice(0, 40) ?? "";
      return `<${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? ` class="${element.className}"` : ""}> "${label}"`;
    };
    const shown = (element: Element) => {
      if (element.closest("[aria-hidden=true], [inert]")) return false;
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && Number(style.opacity) > 0;
    };
    const INTERACTIVE = "a[href], button:not([disabled]), input:not([type=hidden]), select, textarea, [role=slider], [role=button], [role=tab], [tabindex]:not([tabindex='-1'])";
    const dialog = document.querySelector("[role=dialog]");
    const tabBar = document.querySelector("nav.tab-bar");
    const tabTop = tabBar && shown(tabBar) ? tabBar.getBoundingClientRect().top : height - rules.safeArea.bottom;

    // The page and the modal scrolled to their ends: whatever comes last rests there.
    for (const scroller of [document.scrollingElement, ...document.querySelectorAll("*")]) {
      if (scroller instanceof HTMLElement && scroller.scrollHeight > scroller.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) {
        scroller.scrollTop = scroller.scrollHeight;
      }
    }
    if (document.scrollingElement) document.scrollingElement.scrollTop = document.scrollingElement.scrollHeight;

    // 1. 24 px horizontal padding: every element of the header, the page or the modal's content, except what scrolls
    // sideways inside its own (padded) row.
    const scopes = dialog ? [dialog] : [...document.querySelectorAll(".header, .app__main")];
    for (const scope of scopes) {
      for (const element of scope.querySelectorAll("*")) {
        if (!shown(element) || element.closest(".tab-bar")) continue;
        let sideways = false;
        for (let up = element.parentElement; up && up !== scope; up = up.parentElement) {
          if (up.scrollWidth > up.clientWidth + 1 && /(auto|scroll)/.test(getComputedStyle(up).overflowX)) sideways = true;
        }
        // Overlays laid over the whole screen (the coin rain) are not content.
        if (sideways || (!dialog && getComputedStyle(element).position === "fixed")) continue;
        const box = element.getBoundingClientRect();
        if (box.left < rules.padding - 0.5 || box.right > width - rules.padding + 0.5) {
          found.push(`padding: ${name(element)} spans ${Math.round(box.left)}–${Math.round(box.right)} of ${width} px (24 px each side)`);
        }
      }
    }

    // 2. Buttons 24 px above the bottom bar: the tab bar, or in a modal the home indicator; the tab bar's own
    // buttons clear of the home indicator.
    const floor = dialog ? height - rules.safeArea.bottom : tabTop;
    for (const element of (dialog ?? document).querySelectorAll(INTERACTIVE)) {
      if (!shown(element)) continue;
      const box = element.getBoundingClientRect();
      if (element.closest(".tab-bar")) {
        if (box.bottom > height - rules.safeArea.bottom + 0.5) found.push(`bottom: ${name(element)} ends at ${Math.round(box.bottom)}, under the home indicator (${height - rules.safeArea.bottom})`);
        continue;
      }
      if (box.bottom <= 0 || box.top >= floor) continue;
      if (box.bottom > floor - rules.aboveBottomBar + 0.5) {
        found.push(`bottom: ${name(element)} ends at ${Math.round(box.bottom)}, ${Math.round(floor - box.bottom)} px above the ${dialog ? "home indicator" : "tab bar"} (at least 24)`);
      }
    }

    // 3. Nothing interactive under World App's top-right controls: what stays put (fixed or sticky: the header, a
    // modal) wherever the page is scrolled, and everything with the page at its top (scrolled content passes under
    // them, as under any bar).
    const capsule = { left: width - rules.topRightControls.width, bottom: rules.safeArea.top + rules.topRightControls.below };
    const staysPut = (element: Element) => {
      for (let up: Element | null = element; up; up = up.parentElement) {
        if (/(fixed|sticky)/.test(getComputedStyle(up).position)) return true;
      }
      return false;
    };
    const underCapsule = (onlyStaying: boolean) => {
      for (const element of document.querySelectorAll(INTERACTIVE)) {
        if (!shown(element) || (onlyStaying && !staysPut(element))) continue;
        const box = element.getBoundingClientRect();
        if (box.right > capsule.left && box.top < capsule.bottom && box.bottom > 0) {
          found.push(`top-right controls: ${name(element)} at ${Math.round(box.left)}–${Math.round(box.right)} × ${Math.round(box.top)}–${Math.round(box.bottom)} is under them (x > ${capsule.left}, y < ${capsule.bottom})`);
        }
      }
    };
    underCapsule(true);
    for (const scroller of [document.scrollingElement, ...document.querySelectorAll("*")]) {
      if (scroller instanceof HTMLElement) scroller.scrollTop = 0;
    }
    underCapsule(false);

    const calls = (window as unknown as { __dialogCalls?: string[] }).__dialogCalls ?? [];
    for (const call of calls) found.push(`no alert(): the app called ${call}`);
    return [...new Set(found)];
  }, WORLD_APP_LAYOUT);
  return problems.map((problem) => `${where}: ${problem}`);
}

describe.skipIf(!HAS_CHROMIUM)("World App's layout rules in Chromium (320 and 390 px, a phone with a notch)", () => {
  beforeAll(async () => {
    harness = await startHarnessBrowser();
    ({ origin } = harness);
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
  });

  it("finds each broken rule: a control 10 px from the edge, on the tab bar, under the top-right controls, an alert()", async () => {
    const page = await open("notReady", "/about", 390);
    await page.evaluate(() => {
      const main = document.querySelector(".app__main");
      const edge = document.createElement("button");
      edge.textContent = "edge";
      edge.style.cssText = "position: relative; left: -14px";
      main?.prepend(edge);
      const low = document.createElement("button");
      low.textContent = "low";
      low.style.cssText = "position: fixed; left: 40px; bottom: calc(var(--tab-height) + var(--safe-bottom) + 4px)";
      document.body.append(low);
      const corner = document.createElement("button");
      corner.textContent = "corner";
      corner.style.cssText = "position: fixed; right: 30px; top: 60px";
      document.body.append(corner);
      // The check's own test: the app itself may not (no-alert), and the layout check must catch it if it did.
      // eslint-disable-next-line no-alert
      window.alert("hello");
    });
    const problems = (await layoutProblems(page, "broken")).join("\n");
    await page.close();
    expect(problems).toMatch(/padding: <button> "edge" spans 10–/);
    expect(problems).toMatch(/bottom: <button> "low" ends at \d+, 4 px above the tab bar/);
    expect(problems).toMatch(/top-right controls: <button> "corner"/);
    expect(problems).toMatch(/no alert\(\): the app called alert\(hello\)/);
  }, 30_000);

  for (const state of STATES) {
    it(`every screen signed ${state === "signedOut" ? "out" : "in"}: 24 px padding, buttons 24 px above the bottom bar, nothing under the top-right controls, no alert()`, async () => {
      const problems: string[] = [];
      for (const width of WIDTHS) {
        for (const path of ROUTES) {
          const page = await open(state, path, width);
          problems.push(...(await layoutProblems(page, `${path} ${state} ${width} px`)));
          await page.close();
        }
      }
      expect(problems.join("\n")).toBe("");
    }, 240_000);
  }

  it("the claim screen with the slider, and a claim's success", async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      const ready = await open("ready", "/", width);
      problems.push(...(await layoutProblems(ready, `/ ready ${width} px`)));
      await ready.close();
      const success = await open("success", "/", width);
      const thumb = success.getByRole("slider");
      await thumb.focus();
      await success.keyboard.press("End");
      await success.locator(".claim--success").waitFor({ timeout: 10_000 });
      // The after-claim timeline's own timers bring up the reminder offer and the email form a second later: measured
      // once each is up (a measure taken as the modal mounts finds its sheet below the screen, still sliding in).
      const reminder = success.getByRole("dialog", { name: "Never miss a claim" });
      await reminder.waitFor({ timeout: 10_000 });
      await settled(success);
      problems.push(...(await layoutProblems(success, `/ success, the reminder offer ${width} px`)));
      await reminder.getByRole("button", { name: "Not now" }).click();
      await reminder.waitFor({ state: "detached" });
      await success.locator(".email-form").waitFor({ timeout: 10_000 });
      await settled(success);
      problems.push(...(await layoutProblems(success, `/ success ${width} px`)));
      await success.close();
    }
    expect(problems.join("\n")).toBe("");
  }, 120_000);

  it("the invite card, a deep link's invite, the referral banners and the share screen with invites", async () => {
    const problems: string[] = [];
    const states = ["card", "deepLink", "deepLinkNotVerified", "bonusBanner", "alreadyClaimed", "shareInvites", "shareReferee", "shareError"];
    for (const width of WIDTHS) {
      for (const state of states) {
        const page = await open(state, "/", width, "", "referral-states");
        problems.push(...(await layoutProblems(page, `referral ${state} ${width} px`)));
        await page.close();
      }
    }
    expect(problems.join("\n")).toBe("");
  }, 180_000);

  const modals: { name: string; state: string; path?: string; extra?: string; act: (page: Page) => Promise<void> }[] = [
    { name: "verify info", state: "notVerified", act: (page) => page.getByRole("button", { name: "Not verified?" }).click() },
    { name: "halving", state: "notReady", path: "/about", extra: "&announce=halving", act: () => Promise.resolve() },
    { name: "referral announcement", state: "signedOut", extra: "&announce=referral", act: () => Promise.resolve() },
    { name: "partner announcement", state: "notReady", path: "/apps", extra: "&announce=partner:oro-arena", act: () => Promise.resolve() },
    {
      name: "reminder offer",
      state: "success",
      act: async (page) => {
        await page.getByRole("slider").focus();
        await page.keyboard.press("End");
      },
    },
  ];

  for (const modal of modals) {
    it(`the ${modal.name} modal`, async () => {
      const problems: string[] = [];
      for (const width of WIDTHS) {
        const page = await open(modal.state, modal.path ?? "/", width, modal.extra);
        await modal.act(page);
        await page.getByRole("dialog").first().waitFor({ timeout: 10_000 });
        await settled(page);
        problems.push(...(await layoutProblems(page, `${modal.name} ${width} px`)));
        await page.close();
      }
      expect(problems.join("\n")).toBe("");
    }, 60_000);
  }

  it("with the keyboard up: the email form's button stays 24 px above the bottom bar", async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      const page = await open("success", "/", width);
      await page.getByRole("slider").focus();
      await page.keyboard.press("End");
      const reminder = page.getByRole("dialog");
      await reminder.waitFor({ timeout: 10_000 });
      await page.keyboard.press("Escape");
      const email = page.locator("form input[type=email]");
      await email.waitFor({ timeout: 10_000 });
      // The keyboard takes the lower part of the screen: the visual viewport is that much shorter.
      await page.setViewportSize({ width, height: 844 - WORLD_APP_LAYOUT.keyboard });
      await email.focus();
      await page.locator("form button[type=submit]").scrollIntoViewIfNeeded();
      await settled(page);
      problems.push(...(await layoutProblems(page, `email form, keyboard up, ${width} px`)));
      await page.close();
    }
    expect(problems.join("\n")).toBe("");
  }, 60_000);
});
