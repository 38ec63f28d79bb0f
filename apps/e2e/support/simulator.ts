import type { OutboxAnswer, OutboxNotification, ShownNotification } from "@oro/clients";
import { expect, type FrameLocator, type Locator, type Page, type TestInfo } from "@playwright/test";
import { catalogue, LANGUAGES, stem, text } from "./catalogue.js";
import type { E2eStack } from "./stack-file.js";

/**
 * The announcements (halving, referral, partner apps) come up once per device at the first quiet moment. A
 * person closes them; so do the journeys, in any language, unless a journey looks at one itself.
 */
const ANNOUNCEMENT_TITLES = new RegExp(
  LANGUAGES.flatMap((language) => {
    const messages = catalogue(language);
    // A title that starts with its placeholder ("{{date}}に…") has no fixed start: it is matched by its rest.
    return ["announcements.halving.title", "announcements.halvingTeaser.title", "announcements.referral.title", "announcements.partner.title"]
      .map((key) => text(messages, key))
      .map((title) => (stem(title).length >= 2 ? `^${escapeRegExp(stem(title))}` : escapeRegExp(title.replace(/^\{\{\w+\}\}/, "").split("{{")[0] ?? "")))
      .filter((pattern) => pattern.replace(/^\^/, "").length >= 2);
  }).join("|"),
);

/**
 * Wallet ids of the simulator's users (apps/simulator: Alice, Bob with two wallets, Carol, Dave not verified, Erin
 * verified since World ID 4.0).
 */
export type WalletId =
  | "alice-main"
  | "bob-main"
  | "bob-second"
  | "carol-main"
  | "dave-main"
  | "erin-main"
  | "grace-main"
  | "heidi-main"
  | "ivan-main"
  | "lena-main"
  | "mia-main"
  | "noah-main"
  | "olga-main"
  | "olga-second"
  | "pia-main"
  | "quinn-main"
  | "julie-main"
  | "karla-main";

const WALLET_LABELS: Record<WalletId, string> = {
  "alice-main": "Alice, main wallet",
  "bob-main": "Bob (two wallets), main wallet",
  "bob-second": "Bob (two wallets), second wallet",
  "carol-main": "Carol, main wallet",
  "dave-main": "Dave (not verified), main wallet",
  "erin-main": "Erin (verified after June 2026), main wallet",
  "grace-main": "Grace (verified after June 2026), main wallet",
  "heidi-main": "Heidi (lets her streak run out), main wallet",
  "ivan-main": "Ivan (claims in time), main wallet",
  "lena-main": "Lena (verified after June 2026), main wallet",
  "mia-main": "Mia (verified after June 2026), main wallet",
  "noah-main": "Noah (verified after June 2026), main wallet",
  "olga-main": "Olga (verified after June 2026, two wallets), main wallet",
  "olga-second": "Olga (verified after June 2026, two wallets), second wallet",
  "pia-main": "Pia (verified after June 2026), main wallet",
  "quinn-main": "Quinn (moves to 4.0), main wallet",
  "julie-main": "Julie (World App in French), main wallet",
  "karla-main": "Karla (World App in Latin American Spanish), main wallet",
};

/** The simulator's humans ("olga") by the name its list shows (a wallet's label without the wallet). */
const HUMAN_NAMES: Record<string, string> = Object.fromEntries(
  Object.values(WALLET_LABELS).map((label) => [label.split(" ")[0]?.toLowerCase() ?? "", label.replace(/, (main|second) wallet$/, "")]),
);

export interface SimulatorState {
  activeWalletId: string;
  language: string;
  humans: { id: string; wallets: { id: string; address: string; oro: string | null; notifications: string }[] }[];
  shares: { wallet: string; title: string | null; text: string | null; url: string | null }[];
  log: { summary: string }[];
}

export interface ChainStatus {
  blockTime: string;
  amountPerMint: string | null;
  waitBetweenMintsSeconds: number | null;
  killed: boolean | null;
}

/**
 * The simulator page as a person uses it: the phone (the mini app in `#mini-app`) and the control panel. Every
 * control is clicked on the page, and waited for through the page's own status line; the JSON endpoints are
 * only read, to check what the simulator saw.
 */
export class Simulator {
  readonly app: FrameLocator;
  private step = 0;

  constructor(
    readonly page: Page,
    readonly stack: E2eStack,
    private readonly testInfo: TestInfo,
  ) {
    this.app = page.frameLocator("#mini-app");
  }

  /** The announcement on screen, if any. */
  announcement(): Locator {
    return this.app.getByRole("dialog").filter({ has: this.app.getByRole("heading", { name: ANNOUNCEMENT_TITLES }) });
  }

  /** Announcements are closed as they come (see ANNOUNCEMENT_TITLES); `false` leaves them for the journey. */
  async closeAnnouncements(on: boolean): Promise<void> {
    const announcement = this.announcement();
    // The modal may still be sliding in (never "stable" for a click): the close button gets the click event. It
    // may also have gone by itself meanwhile (a claim modal comes first), which is fine.
    const close = () => announcement.locator(".modal__close").dispatchEvent("click", undefined, { timeout: 3_000 }).catch(() => undefined);
    if (on) await this.page.addLocatorHandler(announcement, close, { noWaitAfter: true });
    else await this.page.removeLocatorHandler(announcement);
  }

  /** Opens the simulator (optionally with a deep link's query) and waits for the mini app's first screen. */
  async open(query = ""): Promise<void> {
    // The killswitch's window.confirm.
    this.page.on("dialog", (dialog) => void dialog.accept());
    await this.closeAnnouncements(true);
    await this.page.goto(`${this.stack.simulatorUrl}${query}`);
    await expect(this.page.locator("#humans input[name=wallet]").first()).toBeAttached();
    await this.appReady();
  }

  /** The mini app has rendered its shell (the tab bar). */
  async appReady(): Promise<void> {
    await expect(this.app.locator("nav.tab-bar")).toBeVisible({ timeout: 90_000 });
  }

  /** One screenshot of the phone (390×844) per step, numbered, in this journey's output folder (not committed). */
  async shot(name: string): Promise<void> {
    this.step += 1;
    const file = this.testInfo.outputPath(`${String(this.step).padStart(2, "0")}-${name}.png`);
    await this.page.locator(".phone__screen").screenshot({ path: file, animations: "allow" });
  }

  /**
   * From now on, notes whether an element matching `selector` appears in the mini app, for a state that lasts only
   * seconds ("Copied", the coin rain): a loaded machine's late look could miss it. The returned function tells.
   */
  async watchFor(selector: string): Promise<() => Promise<boolean>> {
    type Watched = HTMLElement & { seenByJourney?: Record<string, boolean> };
    const body = this.app.locator("body");
    await body.evaluate((element: Watched, wanted) => {
      const seen = (element.seenByJourney ??= {});
      seen[wanted] = element.querySelector(wanted) !== null;
      if (seen[wanted]) return;
      const observer = new MutationObserver(() => {
        if (!element.querySelector(wanted)) return;
        seen[wanted] = true;
        observer.disconnect();
      });
      observer.observe(element, { childList: true, subtree: true, attributes: true });
    }, selector);
    return () => body.evaluate((element: Watched, wanted) => element.seenByJourney?.[wanted] === true, selector);
  }

  /** Clicks a control of the panel and waits until the page reports `label: done` (fails on its error line). */
  private async control(label: string, act: () => Promise<void>): Promise<void> {
    const status = this.page.locator("#status");
    await act();
    await expect(status).toHaveText(new RegExp(`^${escapeRegExp(label)}: `), { timeout: 90_000 });
    await expect(status).toHaveText(`${label}: done`);
  }

  async selectWallet(wallet: WalletId): Promise<void> {
    const radio = this.page.getByRole("radio", { name: WALLET_LABELS[wallet], exact: true });
    if (await radio.isChecked()) return;
    await this.relaunchedBy(() => this.control("Switching wallet", () => radio.check()));
  }

  async setLanguage(language: string): Promise<void> {
    // Choosing the language the device already has changes nothing (no relaunch, no status to wait for).
    if ((await this.page.locator("#language").inputValue()) === language) return;
    await this.relaunchedBy(() =>
      this.control(`Device language ${language}`, async () => {
        await this.page.locator("#language").selectOption(language);
      }),
    );
  }

  /**
   * Sets one of the panel's checkboxes. The panel redraws its boxes from the simulator's state every 5 s, and a redraw
   * that was under way at the click can put the box back for a moment (Playwright's setChecked then fails, CI's 8d
   * once): the click is what changes the setting, and the box shows it at the latest after the next redraw.
   */
  private async toggle(box: Locator, on: boolean, label: string): Promise<boolean> {
    if ((await box.isChecked()) === on) return false;
    await this.control(label, () => box.click());
    await expect(box).toBeChecked({ checked: on });
    return true;
  }

  /** A phone with a notch: World App reports a safe area (47 px top, 34 px bottom); the mini app is relaunched. */
  async notch(on: boolean): Promise<void> {
    const box = this.page.locator("#notch");
    if ((await box.isChecked()) === on) return;
    await this.relaunchedBy(() => this.toggle(box, on, "Setting").then(() => undefined));
  }

  async verificationFails(on: boolean): Promise<void> {
    await this.toggle(this.page.locator("#verification-fails"), on, "Setting");
  }

  /** The human's World ID credential expires in 10 days (World App then refuses a request it must outlive). */
  async credentialExpiresSoon(human: string, on: boolean): Promise<void> {
    const box = this.page.getByRole("checkbox", { name: `${HUMAN_NAMES[human] ?? human}: World ID credential expires in 10 days` });
    await this.toggle(box, on, "World ID credential");
  }

  async nextTransaction(answer: "send" | "fail" | "reject" | "front-run"): Promise<void> {
    await this.control("Setting", async () => {
      await this.page.locator("#next-transaction").selectOption(answer);
    });
  }

  async notificationAnswer(answer: "allow" | "deny"): Promise<void> {
    await this.control("Setting", async () => {
      await this.page.locator("#notification-answer").selectOption(answer);
    });
  }

  /** Moves the chain's time, and the phone's clock with it: the mini app is relaunched (this waits for the new launch). */
  async advanceHours(hours: number): Promise<void> {
    if (hours === 1 || hours === 24 || hours === 48) {
      await this.relaunchedBy(() => this.control(`Chain time +${hours} h`, () => this.page.getByRole("button", { name: `+${hours} h`, exact: true }).click()));
      return;
    }
    await this.fillControl(this.page.getByRole("spinbutton", { name: "Hours to move chain time" }), String(hours));
    await this.relaunchedBy(() => this.control(`Chain time +${hours} h`, () => this.page.getByRole("button", { name: "Move chain time" }).click()));
  }

  async setAmountPerMint(amount: string): Promise<void> {
    await this.fillControl(this.page.locator("#owner-amount"), amount);
    await this.control(`Amount per mint ${amount}`, () => this.page.locator("#owner-set-amount").click());
  }

  async setWaitBetweenMints(wait: string): Promise<void> {
    await this.fillControl(this.page.locator("#owner-wait"), wait);
    await this.control(`Wait between mints ${wait}`, () => this.page.locator("#owner-set-wait").click());
  }

  /** The owner closes World ID 3.0 (the page asks to confirm; open() accepts dialogs). */
  async closeWorldId3(): Promise<void> {
    await this.control("Close World ID 3.0", () => this.page.locator("#owner-close-world-id-3").click());
  }

  async killswitch(): Promise<void> {
    await this.control("Killswitch", () => this.page.locator("#owner-killswitch").click());
  }

  /**
   * Opens the mini app with a deep link, through the panel's deep-link form, and waits for the app that the link
   * opened (not the one it replaces, which shows the same tab bar until the new one has loaded).
   */
  async openDeepLink(params: { referralCode?: string; referredBy?: string }): Promise<void> {
    await this.fillControl(this.page.locator("#deep-referral-code"), params.referralCode ?? "");
    await this.fillControl(this.page.locator("#deep-referred-by"), params.referredBy ?? "");
    await this.relaunchedBy(() => this.page.locator("#open-deep-link").click());
  }

  /**
   * Types into one of the simulator's own fields until it holds the value. The mini app beside it may open a modal
   * by itself meanwhile (an announcement), which takes the focus as a dialog should: what was being typed then goes
   * nowhere (CI's rehearsal once opened Bob's deep link without its code so).
   */
  private async fillControl(field: Locator, value: string): Promise<void> {
    await expect(async () => {
      await field.fill(value);
      await expect(field).toHaveValue(value, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
  }

  /** Removes the mini app and installs it again: its storage and cookies go (World App itself stays as it was). */
  async reinstall(): Promise<void> {
    await this.relaunchedBy(() => this.control("Reinstall mini app", () => this.page.locator("#reinstall").click()));
  }

  /** How many times the simulator's log shows `summary` (its newest 60 entries). */
  async logCount(summary: string | RegExp): Promise<number> {
    const { log } = await this.state();
    return log.filter((entry) => (typeof summary === "string" ? entry.summary === summary : summary.test(entry.summary))).length;
  }

  /** Reloads the mini app (World App's relaunch): the app reads everything again. */
  async relaunch(): Promise<void> {
    await this.relaunchedBy(() => this.page.locator("#relaunch").click());
  }

  /**
   * Runs a control that relaunches the mini app, and waits for the new launch. The launch before stays on screen,
   * tab bar, header and all, until the new one replaces it (later on a loaded machine: CI's 8d once signed in on the
   * old launch's screen): its document is marked first, so that only a document without the mark counts as ready.
   */
  private async relaunchedBy(act: () => Promise<void>): Promise<void> {
    const body = this.app.locator("body");
    // No document to mark (the frame is between launches) leaves nothing old to mistake for the new one.
    await body.evaluate(() => Object.assign(window, { __oroRelaunched: true }), undefined, { timeout: 10_000 }).catch(() => undefined);
    await act();
    await expect
      .poll(() => body.evaluate(() => !("__oroRelaunched" in window), undefined, { timeout: 5_000 }).catch(() => false), { timeout: 90_000 })
      .toBe(true);
    await this.appReady();
  }

  async state(): Promise<SimulatorState> {
    return (await (await fetch(`${this.stack.simulatorUrl}state`)).json()) as SimulatorState;
  }

  async chain(): Promise<ChainStatus> {
    return (await (await fetch(`${this.stack.simulatorUrl}chain`)).json()) as ChainStatus;
  }

  /** What the API's development outbox (World's stand-in) recorded: delivered in `language`, or not, with World's reason. */
  async reminders(): Promise<OutboxNotification[]> {
    const answer = (await (await fetch(`${this.stack.apiUrl}/api/dev/notifications?limit=100`)).json()) as OutboxAnswer;
    return answer.notifications;
  }

  /** The reminders the simulator lists, as World App shows them to the wallet (`${username}` filled in), if delivered. */
  async shownReminders(): Promise<ShownNotification[]> {
    const answer = (await (await fetch(`${this.stack.simulatorUrl}notifications`)).json()) as { notifications: ShownNotification[] };
    return answer.notifications;
  }

  /** The reminder passes the API's scheduler has run to their end (its metric `oro_api_reminder_passes_total`). */
  async reminderPasses(metricsUrl: string): Promise<number> {
    const metrics = await (await fetch(metricsUrl)).text();
    const line = /^oro_api_reminder_passes_total (\d+)$/m.exec(metrics);
    if (!line?.[1]) throw new Error("the API's metrics have no oro_api_reminder_passes_total");
    return Number(line[1]);
  }

  /**
   * Waits until the reminder scheduler has run `passes` whole passes from now on (a pass in flight, begun before,
   * does not count), so that a check that something was NOT sent has seen them, however long a loaded machine takes.
   * The rehearsal cannot read its replicas' metrics: there it waits as long as that many passes take at the API's
   * default interval (NOTIFICATION_INTERVAL, 5 s).
   */
  async reminderPassesGoBy(passes: number): Promise<void> {
    const { apiMetricsUrl } = this.stack;
    if (!apiMetricsUrl) {
      await new Promise((resolve) => setTimeout(resolve, passes * 5_000));
      return;
    }
    const from = await this.reminderPasses(apiMetricsUrl);
    await expect.poll(() => this.reminderPasses(apiMetricsUrl), { timeout: 60_000 }).toBeGreaterThanOrEqual(from + 1 + passes);
  }

  private async wallet(wallet: WalletId): Promise<SimulatorState["humans"][number]["wallets"][number]> {
    const state = await this.state();
    const found = state.humans.flatMap((human) => human.wallets).find((candidate) => candidate.id === wallet);
    if (!found) throw new Error(`no wallet ${wallet} in the simulator`);
    return found;
  }

  async walletAddress(wallet: WalletId): Promise<string> {
    return (await this.wallet(wallet)).address;
  }

  /** The ORO the wallet holds, as the simulator reads it from the chain (null while it cannot). */
  async walletOro(wallet: WalletId): Promise<string | null> {
    return (await this.wallet(wallet)).oro;
  }

  // ---- the mini app ----

  /** Signs in (walletAuth through the bridge) when the claim screen asks for it. */
  async signIn(name = "Sign in to claim"): Promise<void> {
    await this.app.getByRole("button", { name }).click();
  }

  /**
   * Signs in on the current screen if it asks for it (a wallet switch is another phone: the session cookie does
   * not come along), and waits for the signed-in header.
   */
  async ensureSignedIn(): Promise<void> {
    const signIn = this.app.getByRole("button", { name: /^Sign in to (claim|share)$/ });
    const header = this.app.locator("header.header");
    await expect(signIn.or(header).first()).toBeVisible({ timeout: 60_000 });
    if (await signIn.isVisible()) await signIn.click();
    await expect(header).toBeVisible({ timeout: 60_000 });
  }

  /**
   * Verifies on the claim screen if it asks for it (a verification is not kept when the simulator switches
   * phones), and waits for the claim state (the slider or the countdown).
   */
  async ensureVerified(): Promise<void> {
    const verify = this.app.getByRole("button", { name: "Verify with World ID" });
    const claimState = this.app.getByRole("slider").or(this.app.getByRole("timer"));
    await expect(verify.or(claimState).first()).toBeVisible({ timeout: 60_000 });
    if (await verify.isVisible()) await verify.click();
    await expect(claimState).toBeVisible({ timeout: 90_000 });
  }

  async verify(name = "Verify with World ID"): Promise<void> {
    await this.app.getByRole("button", { name }).click();
  }

  /**
   * Drags the slider's coin to the end of its track with the mouse, as a finger would. An announcement comes up at
   * the first quiet moment, which can fall between finding the thumb and pressing it (the app never opens one
   * under a held press): the press then lands on the announcement and the thumb does not follow. A person closes
   * it and slides again, and so does this, only when the thumb had not moved (so no claim was asked for).
   */
  async slideToClaim(): Promise<void> {
    const thumb = this.app.getByRole("slider");
    await expect(thumb).toBeVisible();
    await expect(thumb).not.toHaveAttribute("aria-disabled", "true");
    for (let attempt = 1; ; attempt += 1) {
      // Hovering runs the announcement handler first and waits until the thumb itself takes the pointer.
      await thumb.hover();
      const box = await thumb.boundingBox();
      const track = await this.app.locator(".slider").boundingBox();
      if (!box || !track) throw new Error("the slider is not laid out");
      const y = box.y + box.height / 2;
      await this.page.mouse.move(box.x + box.width / 2, y);
      await this.page.mouse.down();
      await this.page.mouse.move(track.x + track.width / 2, y, { steps: 6 });
      const followed = await expect(thumb)
        .not.toHaveAttribute("aria-valuenow", "0", { timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (followed) await this.page.mouse.move(track.x + track.width + 40, y, { steps: 6 });
      await this.page.mouse.up();
      if (followed) return;
      if (attempt === 3) throw new Error("the slider's thumb did not follow the mouse in 3 tries");
      console.log(`[${this.testInfo.title.slice(0, 2)}] the slider's thumb did not follow press ${attempt} (an announcement over it?): pressing again`);
    }
  }

  header(): { streak: Locator; balance: Locator; root: Locator } {
    return { root: this.app.locator("header.header"), streak: this.app.getByTestId("streak"), balance: this.app.getByTestId("balance") };
  }

  async tab(name: string): Promise<void> {
    await this.app.locator("nav.tab-bar").getByRole("link", { name, exact: true }).click();
  }

  /** Opens a screen by its path inside the mini app (as a link in the app would), e.g. `/stats`. */
  async goTo(path: string): Promise<void> {
    await this.app.locator("body").evaluate((body, target) => {
      body.ownerDocument.defaultView?.history.pushState({}, "", target);
      body.ownerDocument.defaultView?.dispatchEvent(new PopStateEvent("popstate"));
    }, path);
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
