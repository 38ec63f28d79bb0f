import { expect, test } from "../support/fixtures.js";

/**
 * 8. The owner's tasks, run from the simulator with the local owner key, seen by Bob (his human last claimed in
 * journey 4, continued; a day of chain time opens his next claim whatever happened since). They change the token
 * for everyone: after the journeys that claim, before the killswitch.
 */
test("8. owner tasks: the halving (amount 0.5) and a changed wait show in the app after a refresh", async ({ sim }) => {
  const { app } = sim;
  const header = sim.header();
  await sim.open();
  await sim.selectWallet("bob-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  await sim.advanceHours(24);
  await sim.appReady();

  // Before the halving: 1 ORO per claim.
  await sim.setAmountPerMint("1");
  expect((await sim.chain()).amountPerMint).toBe("1");
  await sim.relaunch();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 60_000 });
  await sim.slideToClaim();
  await expect(app.getByRole("heading", { name: "+1 ORO" })).toBeVisible({ timeout: 90_000 });
  await sim.shot("claimed-1-oro");

  // The halving, and a wait of one hour instead of a day.
  await sim.setAmountPerMint("0.5");
  await sim.setWaitBetweenMints("1h");
  const chain = await sim.chain();
  expect(chain.amountPerMint).toBe("0.5");
  expect(chain.waitBetweenMintsSeconds).toBe(3600);
  await sim.relaunch();
  const timer = app.getByRole("timer");
  // At most an hour left, no days.
  await expect(timer).toHaveText(/^(00:[0-5]\d:[0-5]\d|01:00:00)$/, { timeout: 60_000 });
  await sim.shot("wait-1h-countdown");

  await sim.advanceHours(1);
  await sim.appReady();
  await expect(header.root).toHaveClass(/header--gold/, { timeout: 60_000 });
  await sim.slideToClaim();
  await expect(app.getByRole("heading", { name: "+0.5 ORO" })).toBeVisible({ timeout: 90_000 });
  await sim.shot("claimed-0.5-oro-after-halving");
});
