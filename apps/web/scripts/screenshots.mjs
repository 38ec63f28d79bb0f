// Screenshots of every claim state at 390×844 in Chromium: `pnpm --filter @oro/web screenshots`.
// Starts the Vite dev server on a free 127.0.0.1 port, opens the claim-state harness (the real app with fake
// services) and writes apps/web/screenshots/<state>.png. Needs /usr/bin/chromium (apt-get install -y chromium).
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumLaunchOptions, HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from "@oro/dev-stack/chromium";
import { chromium } from "playwright-core";
import { createServer } from "vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "screenshots");

if (!HAS_CHROMIUM) {
  console.error(`screenshots need Chromium: ${NO_CHROMIUM_MESSAGE}`);
  process.exit(1);
}

// Experiment 2 is switched on here so that both of its arms can be shown; each shot fixes its arm by cookie.
process.env.VITE_EXPERIMENTS ??= "2";
// Port 0: the system picks a free port.
const server = await createServer({ root, logLevel: "error", server: { host: "127.0.0.1", port: 0, strictPort: true } });
await server.listen();
const base = `${server.resolvedUrls.local[0]}test/harness/claim-states.html`;
const browser = await chromium.launch(chromiumLaunchOptions());

/** Drags the slider's thumb to the end of its track and releases it. */
async function slideToClaim(page) {
  const thumb = page.getByRole("slider");
  const box = await thumb.boundingBox();
  const track = await page.locator(".slider").boundingBox();
  if (!box || !track) throw new Error("slider not visible");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width + 40, box.y + box.height / 2, { steps: 12 });
  await page.mouse.up();
}

const shots = [
  { name: "1-signed-out", state: "signedOut", ready: ".claim--signedOut" },
  { name: "2-not-verified", state: "notVerified", ready: ".claim--notVerified" },
  { name: "2b-verify-info-modal", state: "notVerified", ready: ".claim--notVerified", act: (page) => page.getByText("Not verified?").click(), wait: "[role=dialog]" },
  { name: "3-ready", state: "ready", ready: ".claim--ready .slider" },
  { name: "4-not-ready", state: "notReady", ready: ".claim--notReady .price-card__value" },
  { name: "5-claiming", state: "claiming", ready: ".claim--ready .slider", act: slideToClaim, wait: ".claim--claiming" },
  { name: "6-success", state: "success", ready: ".claim--ready .slider", act: slideToClaim, wait: ".claim--success", settle: 900 },
  { name: "6b-success-after-5s", state: "success", ready: ".claim--ready .slider", act: slideToClaim, wait: ".claim--success", settle: 5600 },
  { name: "7-chain-trouble", state: "chainTrouble", ready: ".claim--ready .slider", act: slideToClaim, wait: ".notice--error" },
  { name: "8-not-ready-320px-filipino", state: "notReady", lang: "fil", width: 320, ready: ".claim--notReady .price-card__value" },
  { name: "9-ready-320px-spanish", state: "ready", lang: "es", width: 320, ready: ".claim--ready .slider" },
];

/** Types an invite code into the open code modal and submits it. */
async function submitCode(page) {
  await page.locator(".referral-card .button").click();
  await page.locator(".referral-form__input").fill("K7QX3MZP");
  await page.locator(".referral-form [type=submit]").click();
}
const openModal = (page) => page.locator(".referral-card .button").click();
const approve = (page) => page.locator(".referral-card .button").click();
// The referral parts (issue 9), each in English and Japanese, from their own harness.
const referralShots = [
  { name: "r1-claim-invite-card", state: "card", ready: ".referral-card" },
  { name: "r2-claim-code-modal-empty", state: "card", ready: ".referral-card", act: openModal, wait: ".referral-form" },
  { name: "r3-claim-code-modal-error", state: "modalError", ready: ".referral-card", act: submitCode, wait: ".referral-form .field-error" },
  { name: "r4-claim-code-modal-submitting", state: "modalSubmitting", ready: ".referral-card", act: submitCode, wait: ".referral-form [aria-busy=true]" },
  { name: "r5-claim-deep-link-approve", state: "deepLink", ready: ".referral-card .button" },
  { name: "r6-claim-deep-link-before-verify", state: "deepLinkNotVerified", ready: ".referral-card" },
  { name: "r7-banner-referral-bonus", state: "bonusBanner", ready: ".banner--success" },
  { name: "r8-banner-already-exists", state: "alreadyExists", ready: ".referral-card .button", act: approve, wait: ".banner--info" },
  { name: "r9-banner-already-claimed", state: "alreadyClaimed", ready: ".banner--info" },
  { name: "s1-share-signed-out", state: "shareSignedOut", ready: ".share .button" },
  { name: "s2-share-loading", state: "shareLoading", ready: ".share-code--loading" },
  { name: "s3-share-error", state: "shareError", ready: ".share .share-code__error", settle: 4000 },
  { name: "s4-share-with-invites", state: "shareInvites", ready: ".share-invites__list" },
  { name: "s5-share-referee-panel", state: "shareReferee", ready: ".referee-panel" },
  { name: "s6-share-referee-success", state: "shareReferee", ready: ".referee-panel", act: (page) => page.locator(".referee-panel .button").click(), wait: ".modal", settle: 900 },
].flatMap((shot) => ["en", "ja"].map((lang) => ({ ...shot, name: `${shot.name}-${lang}`, lang, harness: "referral-states" })));
shots.push(...referralShots);

// Stats, about, apps (both arms of experiment 2), rewards, the tournament promo, polls, the announcements and
// the debug page (issue 10), each in English and Thai. `query` adds harness parameters; `clock` fixes the date.
const toTournament = (page) => page.locator(".tournament").evaluate((element) => element.scrollIntoView());
const toDirectory = (page) => page.locator(".apps__heading").evaluate((element) => element.scrollIntoView());
const vote = (page) => page.locator(".poll__option").first().click();
const screenShots = [
  { name: "t01-stats-signed-in", state: "notReady", path: "/stats", ready: ".stat__streak" },
  { name: "t02-stats-signed-out", state: "signedOut", path: "/stats", ready: ".stats__list" },
  { name: "t03-about", state: "notReady", path: "/about", ready: "[data-testid=human-count]" },
  { name: "t04-apps-control", state: "notReady", path: "/apps", ready: ".apps__list--rows", cookie: "control", act: toDirectory },
  { name: "t05-apps-variant-grid", state: "notReady", path: "/apps", ready: ".apps__list--grid", cookie: "variant", act: toDirectory },
  { name: "t06-rewards-progress", state: "notReady", path: "/apps", query: "&swap=2", ready: ".rewards .price-card__value", cookie: "control" },
  { name: "t06b-rewards-signed-out", state: "signedOut", path: "/apps", ready: ".rewards .price-card__value", cookie: "control" },
  { name: "t07-rewards-success", state: "notReady", path: "/apps", query: "&swap=7.5", ready: ".rewards--success .price-card__value", cookie: "control" },
  { name: "t08-tournament-promo", state: "notReady", path: "/apps", ready: ".tournament", act: toTournament, cookie: "control", clock: "2027-03-10T09:00:00" },
  { name: "t09-polls-signed-in", state: "notReady", path: "/polls", ready: ".poll" },
  { name: "t10-polls-voted", state: "notReady", path: "/polls", ready: ".poll", act: vote, wait: ".poll__option--mine[aria-pressed=true]" },
  { name: "t11-polls-closed-error", state: "notReady", path: "/polls", query: "&voteError=POLL_CLOSED", ready: ".poll", act: vote, wait: ".poll [role=alert]" },
  { name: "t12-polls-signed-out", state: "signedOut", path: "/polls", ready: ".poll" },
  { name: "t13-announcement-halving-teaser", state: "signedOut", query: "&announce=halving-teaser", ready: ".claim", wait: "[role=dialog]", clock: "2025-10-10T09:00:00Z" },
  { name: "t14-announcement-halving", state: "notReady", query: "&announce=halving", ready: ".claim", wait: "[role=dialog]" },
  { name: "t15-announcement-referral", state: "notReady", query: "&announce=referral", ready: ".claim", wait: "[role=dialog]" },
  { name: "t16-announcement-partner", state: "notReady", query: "&announce=partner:oro-arena", ready: ".claim", wait: "[role=dialog]" },
  { name: "t17-debug", state: "notReady", path: "/debug", ready: ".debug-list" },
].flatMap((shot) => ["en", "th"].map((lang) => ({ ...shot, name: `${shot.name}-${lang}`, lang })));
shots.push(...screenShots);

mkdirSync(outDir, { recursive: true });
// `node scripts/screenshots.mjs r s4` makes only the shots whose names start with one of the arguments.
const only = process.argv.slice(2);
try {
  for (const shot of shots.filter((candidate) => only.length === 0 || only.some((prefix) => candidate.name.startsWith(prefix)))) {
    const page = await browser.newPage({ viewport: { width: shot.width ?? 390, height: 844 }, deviceScaleFactor: 1 });
    await page.emulateMedia({ reducedMotion: "no-preference" });
    const harness = shot.harness ? base.replace("claim-states", shot.harness) : base;
    if (shot.clock) await page.clock.setFixedTime(new Date(shot.clock));
    if (shot.cookie) await page.context().addCookies([{ name: "oro_exp_2", value: shot.cookie, url: harness }]);
    const extra = `${shot.path ? `&path=${encodeURIComponent(shot.path)}` : ""}${shot.query ?? ""}`;
    await page.goto(`${harness}?state=${shot.state}${shot.lang ? `&lang=${shot.lang}` : ""}${extra}`);
    await page.waitForSelector(shot.ready);
    if (shot.act) await shot.act(page);
    if (shot.wait) await page.waitForSelector(shot.wait);
    await page.waitForTimeout(shot.settle ?? 400);
    const file = join(outDir, `${shot.name}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${file}`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
