import { expect, test } from "../support/fixtures.js";

/**
 * 3. The next day, with Alice (she claimed in journey 1). Chain time moves with the simulator's controls; the
 * phone's clock follows the chain (the simulator relaunches the mini app with it), the indexer reads streaks with
 * the chain's time.
 */
test("3. next day: +24 h turns the header gold, a claim makes the streak 2; +49 h resets it to 0 and the next claim to 1", async ({ sim }) => {
  const { app } = sim;
  const header = sim.header();
  await sim.open();
  await sim.selectWallet("alice-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  await expect(app.getByRole("timer")).toBeVisible({ timeout: 60_000 });
  await expect(header.root).toHaveClass(/header--blue/);
  await expect(header.streak).toHaveText("1 day", { timeout: 60_000 });
  await sim.shot("day-1-countdown");

  await sim.advanceHours(24);
  await sim.appReady();
  await expect(header.root).toHaveClass(/header--gold/, { timeout: 60_000 });
  await expect(app.getByRole("slider")).toBeVisible();
  await sim.shot("day-2-ready-gold");
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await expect(header.streak).toHaveText("2 days", { timeout: 90_000 });
  await sim.shot("day-2-streak-2");

  // 49 hours without a claim: the streak has lapsed.
  await sim.advanceHours(48);
  await sim.advanceHours(1);
  await sim.appReady();
  // The API keeps a streak answer for STREAK_CACHE_TTL (a minute by default, 2 s on the journeys' stack): the user
  // opens the app again until it shows.
  await expect
    .poll(
      async () => {
        await sim.relaunch();
        await expect(header.streak).not.toHaveText("--", { timeout: 60_000 });
        return header.streak.textContent();
      },
      { timeout: 180_000, intervals: [5_000] },
    )
    .toBe("0 days");
  await expect(header.root).toHaveClass(/header--gold/);
  await sim.shot("lapsed-streak-0");
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await expect(header.streak).toHaveText("1 day", { timeout: 90_000 });
  await sim.shot("restarted-streak-1");
});
