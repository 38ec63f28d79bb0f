import { expect, test } from "../support/fixtures.js";

test("1. a newcomer signs in, verifies, slides to claim, sees the success and the coin rain, then the countdown", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("alice-main");
  await expect(app.getByRole("button", { name: "Sign in to claim" })).toBeVisible();
  await sim.shot("signed-out");

  await sim.signIn();
  await expect(app.getByRole("button", { name: "Verify with World ID" })).toBeVisible();
  await expect(sim.header().root).toBeVisible();
  await sim.shot("signed-in-verify");

  await sim.verify();
  await expect(app.getByRole("slider", { name: "Slide to claim your ORO" })).toBeVisible();
  await sim.shot("verified-ready");

  // The coin rain lasts a few seconds: watched from before the claim.
  const rained = await sim.watchFor("[data-testid=coin-rain] .coin-rain__coin");
  await sim.slideToClaim();
  // The mint is a real transaction on the local chain; the success state follows its receipt.
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await expect.poll(rained).toBe(true);
  await sim.shot("success-coin-rain");
  await expect(app.getByRole("heading", { name: "+0.5 ORO" })).toBeVisible();
  await expect(app.getByText("Claimed! Your streak keeps growing.")).toBeVisible();

  // The after-claim offers (reminders, email) are declined here; journey 6 takes the reminders.
  const later = app.getByRole("dialog").getByRole("button", { name: "Not now" });
  await expect(later).toBeVisible();
  await sim.shot("after-claim-offer");
  await later.click();
  const emailLater = app.getByRole("button", { name: "Not now" });
  if (await emailLater.isVisible()) await emailLater.click();

  // The header: the claimed amount and a one-day streak (through the indexer and the API).
  await expect(sim.header().balance).toHaveText(/0\.5/, { timeout: 90_000 });
  await expect(sim.header().streak).toHaveText("1 day", { timeout: 90_000 });
  await expect(sim.header().root).toHaveClass(/header--blue/);

  // Then the countdown to the next claim (about 24 h).
  await sim.relaunch();
  await expect(app.getByRole("timer")).toHaveText(/2[34]:\d\d:\d\d/, { timeout: 60_000 });
  await expect(sim.header().balance).toHaveText(/0\.5/);
  await sim.shot("countdown");

  const state = await sim.state();
  const alice = state.humans.find((human) => human.id === "alice")?.wallets[0];
  expect(alice?.oro).toBe("0.5");
});
