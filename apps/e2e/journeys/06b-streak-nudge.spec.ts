import { STREAK_AT_RISK_TEXTS } from "@oro/clients";
import { expect, test } from "../support/fixtures.js";
import { claimAndAllowReminders } from "../support/reminders.js";

/**
 * 6b. The streak-at-risk nudge (World's own example of a trigger-based push), with Heidi in Portuguese, who lets
 * her streak run out, and Ivan, who claims in time; both new here. Each claims and allows reminders (the API
 * schedules the claim reminder for the next claim and the nudge 4 h before the streak would lapse: a day's wait,
 * a lapse at two). A day later each gets the claim reminder and Ivan claims again; 20 h after that Heidi, who has
 * not claimed, gets one nudge, in Portuguese, with her username as World App shows it; Ivan gets none.
 *
 * World's per-day setting is the API's default, one a user a day, counted in the API's clock's UTC day (the chain's
 * here): chain time is first moved to 05:00–23:00 UTC, so that the claim reminders and the nudge, 20 h apart, fall
 * on different days.
 */
test("6b. streak at risk: one nudge in her language with her username to a human who has not claimed; none to one who claimed", async ({ sim }) => {
  // Three claims, two relaunches in another language and four scheduler waits: 46 s on a quiet machine, 2.6 min
  // at a load average of 16, so the default 4 min leaves too little room on a loaded CI machine.
  test.slow();
  const { app } = sim;
  await sim.open();
  // In one move (each move relaunches the app): to 05:00 UTC when the chain's hour is 23:00–04:59.
  const hour = new Date((await sim.chain()).blockTime).getUTCHours();
  if (hour < 5 || hour >= 23) await sim.advanceHours((5 - hour + 24) % 24);
  expect(new Date((await sim.chain()).blockTime).getUTCHours()).toBeGreaterThanOrEqual(5);
  expect(new Date((await sim.chain()).blockTime).getUTCHours()).toBeLessThan(23);

  await claimAndAllowReminders(sim, "heidi-main", "pt");
  await claimAndAllowReminders(sim, "ivan-main", "en");
  const heidi = (await sim.walletAddress("heidi-main")).toLowerCase();
  const ivan = (await sim.walletAddress("ivan-main")).toLowerCase();
  const to = async (address: string) => (await sim.shownReminders()).filter((reminder) => reminder.address.toLowerCase() === address);
  const nudgesTo = async (address: string) => (await to(address)).filter((reminder) => NUDGE_TITLES.has(reminder.title));

  // A day later (chain time) each has the claim reminder; Ivan claims again, Heidi does not.
  await sim.advanceHours(24);
  await expect.poll(async () => (await to(heidi)).length, { timeout: 90_000 }).toBe(1);
  await expect.poll(async () => (await to(ivan)).length, { timeout: 90_000 }).toBe(1);
  expect(await nudgesTo(heidi)).toHaveLength(0);
  await sim.selectWallet("ivan-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await sim.shot("ivan-claims-again");

  // 20 h on, 4 h before Heidi's streak would lapse: her nudge, in Portuguese, with her username.
  await sim.advanceHours(20);
  await expect.poll(async () => (await nudgesTo(heidi)).length, { timeout: 90_000 }).toBe(1);
  const [nudge] = await nudgesTo(heidi);
  expect(nudge).toMatchObject({
    language: "pt",
    username: "heidi",
    sent: true,
    title: "Sua sequência acaba logo",
    message: "${username}, resgate seu ORO hoje para manter sua sequência.",
    shown: { title: "Sua sequência acaba logo", message: "heidi, resgate seu ORO hoje para manter sua sequência." },
  });
  // The simulator's list shows it as World App does.
  await expect(sim.page.locator("#reminders")).toContainText("heidi, resgate seu ORO hoje para manter sua sequência.", { timeout: 30_000 });
  await sim.page.locator("#reminders").scrollIntoViewIfNeeded();
  await sim.page.screenshot({ path: test.info().outputPath("nudge-in-the-reminder-list.png") });
  await sim.selectWallet("heidi-main");
  await sim.shot("heidi-at-risk");

  // Once, and none to Ivan, who claimed before it was due: after each of three more scheduler passes (counted by the
  // API's metric).
  for (let pass = 0; pass < 3; pass += 1) {
    await sim.reminderPassesGoBy(1);
    expect(await nudgesTo(heidi)).toHaveLength(1);
    expect(await to(ivan)).toHaveLength(1);
  }
});

/** The nudge's titles (@oro/clients STREAK_AT_RISK_TEXTS) in the languages these two use. */
const NUDGE_TITLES = new Set([STREAK_AT_RISK_TEXTS.pt.title, STREAK_AT_RISK_TEXTS.en.title]);
