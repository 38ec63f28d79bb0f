import { expect, test } from "../support/fixtures.js";

test("2. an unverified user: verification fails and the not-verified modal shows its links", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("dave-main");
  await sim.signIn();
  await expect(app.getByRole("button", { name: "Verify with World ID" })).toBeVisible();
  await sim.shot("signed-in");

  await sim.verify();
  const modal = app.getByRole("dialog").filter({ has: app.getByRole("heading", { name: "Only verified humans can claim" }) });
  await expect(modal).toBeVisible({ timeout: 60_000 });
  await expect(modal.getByRole("button", { name: "How to get verified" })).toBeVisible();
  await expect(modal.getByRole("button", { name: "Open the swap app" })).toBeVisible();
  await sim.shot("not-verified-modal");
  // No slider: the user stays on the verify step.
  await expect(app.getByRole("slider")).toHaveCount(0);
  const state = await sim.state();
  // The wallet gave no proof for Dave.
  expect(state.log.map((entry) => entry.summary).join("\n")).not.toMatch(/development proof for Dave/);
});
