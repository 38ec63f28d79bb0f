import { expect, test } from "../support/fixtures.js";
import type { Simulator, WalletId } from "../support/simulator.js";

/**
 * 8f–8j. No failure ends in a lock-out (docs/world-id-4.md, "No failure locks a human out"). World App discloses a
 * human's enrolment proof once, then answers `nullifier_replayed` for a year: the app keeps it on the phone and on
 * the API until the chain shows the enrolment. Each journey below meets one failure between verifying and the
 * enrolment landing, and ends with the human enrolled once (World App asked for their enrolment proof once) and
 * claiming. Each uses humans of its own: Lena, Mia, Noah and Olga (verified after June 2026), and Ivan (3.0, after
 * journey 6b) for the move.
 */

const UNIQUENESS_PROOF = (name: string) => new RegExp(`^World ID 4\\.0: uniqueness proof for ${name} `);

/** The wallet's human is enrolled (the indexer has the session for it) and has claimed once: their first claim. */
async function expectEnrolledAndClaimed(sim: Simulator, wallet: WalletId): Promise<void> {
  const address = await sim.walletAddress(wallet);
  await expect(sim.header().streak).toHaveText("1 day", { timeout: 90_000 });
  await expect
    .poll(async () => ((await (await fetch(`${sim.stack.indexerUrl}/world-id/${address}`)).json()) as { session: { idkitSessionId: string } | null }).session?.idkitSessionId ?? null, {
      timeout: 60_000,
    })
    .toMatch(/^session_[0-9a-f]{128}$/);
  const streak = (await (await fetch(`${sim.stack.indexerUrl}/streaks/${address}`)).json()) as { numOfMints: number };
  expect(streak.numOfMints).toBe(1);
}

/** The slider is back at its start and can be slid again (the last claim ended without landing). */
async function expectSliderBack(sim: Simulator): Promise<void> {
  const thumb = sim.app.getByRole("slider");
  await expect(thumb).toHaveAttribute("aria-valuenow", "0", { timeout: 60_000 });
  await expect(thumb).not.toHaveAttribute("aria-disabled", "true");
}

test("8f. the enrolment rejected in the wallet, then failed on chain, is completed by the next slide (a credential that expires within 30 days)", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("lena-main");
  // World App cannot prove a 30-day expiry for her: the app asks again with the chain's now.
  await sim.credentialExpiresSoon("lena", true);
  try {
    await sim.ensureSignedIn();
    await sim.verify();
    await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
    expect(await sim.logCount(/expires before the request's expires_at_min/)).toBeGreaterThanOrEqual(1);

    await sim.nextTransaction("reject");
    await sim.slideToClaim();
    await expect.poll(() => sim.logCount("sendTransaction: rejected by the user"), { timeout: 90_000 }).toBeGreaterThanOrEqual(1);
    await expectSliderBack(sim);
    await sim.shot("lena-rejected-slider-back");

    await sim.nextTransaction("fail");
    await sim.slideToClaim();
    await expect.poll(() => sim.logCount("sendTransaction: failed (switch)"), { timeout: 90_000 }).toBeGreaterThanOrEqual(1);
    await expectSliderBack(sim);

    await sim.slideToClaim();
    await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
    await sim.shot("lena-enrolled");
  } finally {
    await sim.credentialExpiresSoon("lena", false);
  }
  await expectEnrolledAndClaimed(sim, "lena-main");
  expect(await sim.logCount(UNIQUENESS_PROOF("Lena"))).toBe(1);
});

test("8g. the app closed between verifying and sliding, and the slide 6 hours later: the kept proofs enrol her", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("mia-main");
  await sim.ensureSignedIn();
  await sim.verify();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  await sim.relaunch();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  await expect(app.getByRole("button", { name: "Verify with World ID" })).toHaveCount(0);
  // World's verifier takes the enrolment proof for 5 hours past its expiry floor: asked 30 days ahead, it still lands.
  await sim.advanceHours(6);
  await sim.appReady();
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await sim.shot("mia-enrolled-6-hours-later");
  await expectEnrolledAndClaimed(sim, "mia-main");
  expect(await sim.logCount(UNIQUENESS_PROOF("Mia"))).toBe(1);
});

test("8h. a reinstall (nothing left on the phone): after signing in the proofs the API kept come back without a prompt, and enrol him", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("noah-main");
  await sim.ensureSignedIn();
  await sim.verify();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  await sim.reinstall();
  await sim.ensureSignedIn();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  await expect(app.getByRole("button", { name: "Verify with World ID" })).toHaveCount(0);
  await sim.shot("noah-reinstalled-slider");
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await expectEnrolledAndClaimed(sim, "noah-main");
  expect(await sim.logCount(UNIQUENESS_PROOF("Noah"))).toBe(1);
});

test("8i. World App answers nullifier_replayed on her second wallet: she is told where she joined, and enrols once from there", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("olga-main");
  await sim.ensureSignedIn();
  await sim.verify();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });

  // Her other wallet, past World App's 10-minute grace: World App will not disclose her enrolment proof again.
  await sim.selectWallet("olga-second");
  await sim.advanceHours(1);
  await sim.ensureSignedIn();
  await sim.verify();
  const dialog = app.getByRole("dialog", { name: "Only verified humans can claim" });
  await expect(dialog.getByText("This World ID has already joined ORO from another wallet. Open ORO from that wallet to claim.")).toBeVisible({ timeout: 90_000 });
  expect(await sim.logCount(/nullifier_replayed/)).toBeGreaterThanOrEqual(1);
  await sim.shot("olga-second-wallet-already-joined");

  await sim.selectWallet("olga-main");
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await expectEnrolledAndClaimed(sim, "olga-main");
  expect(await sim.logCount(UNIQUENESS_PROOF("Olga"))).toBe(1);
  const second = await sim.walletAddress("olga-second");
  expect(((await (await fetch(`${sim.stack.indexerUrl}/world-id/${second}`)).json()) as { session: unknown }).session).toBeNull();
});

test("8j. a 3.0 human's move rejected in the wallet, then failed, then the app closed: the card finishes it from the kept proofs", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("ivan-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  const ivan = await sim.walletAddress("ivan-main");
  const card = app.getByRole("region", { name: "Move to World ID 4.0" });
  await expect(card).toBeVisible({ timeout: 60_000 });

  await sim.nextTransaction("reject");
  await card.getByRole("button", { name: "Move to World ID 4.0" }).click();
  const finish = card.getByRole("button", { name: "Finish the move" });
  await expect(finish).toBeVisible({ timeout: 120_000 });
  await expect(finish).toBeEnabled({ timeout: 60_000 });

  await sim.nextTransaction("fail");
  await finish.click();
  await expect(card.getByRole("alert")).toHaveText("The move did not finish. World ID's confirmation is kept: try again.", { timeout: 120_000 });
  await sim.shot("ivan-move-kept");

  await sim.relaunch();
  await expect(finish).toBeVisible({ timeout: 60_000 });
  await finish.click();
  await expect(card).toBeHidden({ timeout: 120_000 });
  await expect
    .poll(async () => ((await (await fetch(`${sim.stack.indexerUrl}/world-id/${ivan}`)).json()) as { movedToWorldId4: boolean }).movedToWorldId4, { timeout: 60_000 })
    .toBe(true);
  expect(await sim.logCount(UNIQUENESS_PROOF("Ivan"))).toBe(1);
});
