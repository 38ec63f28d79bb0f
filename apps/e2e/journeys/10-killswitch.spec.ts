import { expect, test } from "../support/fixtures.js";

/** 5. Errors, continued: the killswitch ends minting for good, so it is the run's last journey. */
test("5. errors: after the killswitch a claim says claims are paused, under the claims banner", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("carol-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  // Carol's next claim opens (whatever the wait is by now).
  await sim.advanceHours(24);
  await sim.appReady();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 60_000 });

  await sim.killswitch();
  expect((await sim.chain()).killed).toBe(true);
  await sim.relaunch();
  await sim.shot("killswitched-ready");
  await sim.slideToClaim();
  // The app asks the chain why the wallet could not send the mint: the contract names MintingKilled.
  await expect(app.getByText("Claims are paused for now. Please try again later.")).toBeVisible({ timeout: 90_000 });
  await expect(app.getByText("We are working on fixing errors with claims")).toBeVisible();
  await expect(app.locator(".claim--success")).toHaveCount(0);
  await sim.shot("claims-paused");
  const state = await sim.state();
  expect(state.log.map((entry) => entry.summary).join("\n")).toMatch(/sendTransaction: simulation failed/);
});
