import { expect, test } from "../support/fixtures.js";

/**
 * 9a. Before 3.0 closes, Heidi (a 3.0 human, journey 6b) starts her move and the wallet rejects its transaction:
 * the proofs World App gave are kept, the move is not finished yet (9c takes it up after the close).
 */
test("9a. a 3.0 human's move rejected in the wallet before 3.0 closes stays kept", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("heidi-main");
  // Journey 6b set Heidi's World App to Portuguese; this journey reads the English labels.
  await sim.setLanguage("en");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  const card = app.getByRole("region", { name: "Move to World ID 4.0" });
  await expect(card).toBeVisible({ timeout: 60_000 });
  await sim.nextTransaction("reject");
  await card.getByRole("button", { name: "Move to World ID 4.0" }).click();
  await expect(card.getByRole("button", { name: "Finish the move" })).toBeVisible({ timeout: 120_000 });
  await sim.shot("heidi-move-kept");
});

/**
 * 9b. The owner closes World ID 3.0 (at or after World's cut-off, 1 April 2027). Carol never moved: her 3.0 proof
 * mints nothing any more, so the app asks her to verify again, and she enrols with World ID 4.0 (whatever her
 * credential's age) and claims: nobody is locked out. After the owner tasks, before the killswitch.
 */
test("9b. after 3.0 closes, a human who never moved verifies again, enrols with World ID 4.0 and claims", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.closeWorldId3();
  await sim.selectWallet("carol-main");
  await sim.ensureSignedIn();
  await sim.advanceHours(24);
  await sim.appReady();
  // Her stored 3.0 proof no longer counts.
  await expect(app.getByRole("button", { name: "Verify with World ID" })).toBeVisible({ timeout: 60_000 });
  await sim.shot("carol-asked-to-verify-again");
  await sim.verify();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  const carol = await sim.walletAddress("carol-main");
  const before = (await sim.state()).humans.find((human) => human.id === "carol")?.wallets[0]?.oro;
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await sim.shot("carol-enrolled-after-close");
  await expect.poll(async () => (await sim.state()).humans.find((human) => human.id === "carol")?.wallets[0]?.oro, { timeout: 60_000 }).not.toBe(before);
  // The chain records her new session for this wallet, so another phone of hers finds it.
  const status = (await (await fetch(`${sim.stack.indexerUrl}/world-id/${carol}`)).json()) as { session: { idkitSessionId: string } | null };
  expect(status.session?.idkitSessionId).toMatch(/^session_[0-9a-f]{128}$/);
});

/**
 * 9c. After the close a kept move can no longer move Heidi's 3.0 history (the contract refuses moves once 3.0 is
 * closed), but its enrolment proof was asked for without a genesis bound: it enrols her as a human new under 4.0 (a
 * new streak), with no new World ID prompt but the session proof. Needs 9a, and 9b's close (a second close reverts).
 */
test("9c. after 3.0 closes, a kept move enrols its human instead, and she claims", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("heidi-main");
  // Journey 6b set Heidi's World App to Portuguese; this journey reads the English labels.
  await sim.setLanguage("en");
  await sim.ensureSignedIn();
  await expect(app.getByRole("region", { name: "Move to World ID 4.0" })).toHaveCount(0);
  const slider = app.getByRole("slider");
  const timer = app.getByRole("timer");
  await expect(slider.or(timer).first()).toBeVisible({ timeout: 90_000 });
  await expect(app.getByRole("button", { name: "Verify with World ID" })).toHaveCount(0);
  // Her last 3.0 claim's wait, if it has not passed yet (the chain moved on since journey 6b), then the slide.
  if (await timer.isVisible()) await sim.advanceHours(24);
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await sim.shot("heidi-enrolled-after-close");
  const heidi = await sim.walletAddress("heidi-main");
  const status = (await (await fetch(`${sim.stack.indexerUrl}/world-id/${heidi}`)).json()) as { session: { idkitSessionId: string } | null; movedToWorldId4: boolean };
  expect(status.session?.idkitSessionId).toMatch(/^session_[0-9a-f]{128}$/);
  expect(status.movedToWorldId4).toBe(false);
});
