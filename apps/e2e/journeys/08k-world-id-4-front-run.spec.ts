import { expect, test } from "../support/fixtures.js";
import type { Simulator } from "../support/simulator.js";

/**
 * 8k. A front-runner who reads the mempool copies a human's pending World ID 4.0 transaction and lands the copy first
 * (the simulator's "front-run" answer: the same calls from another account, then the wallet's own, which World App's
 * simulation now refuses). Every proof in it names the human's wallet and session, so the copy can only do what the
 * human asked: the app sees that on chain and carries on. Pia (verified after June 2026) enrols; Quinn (3.0) moves.
 */

const UNIQUENESS_PROOF = (name: string) => new RegExp(`^World ID 4\\.0: uniqueness proof for ${name} `);
/** The wallet's own transaction, sent after the copy: World App's simulation refuses it. */
const OWN_TRANSACTION_REFUSED = /^sendTransaction: simulation failed/;

async function indexed<T>(sim: Simulator, path: string): Promise<T> {
  return (await (await fetch(`${sim.stack.indexerUrl}${path}`)).json()) as T;
}

test("8k. a front-runner lands a copy of her enrolment first: it enrols her, to her own wallet, and the app shows her claim as done", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("pia-main");
  await sim.ensureSignedIn();
  await sim.verify();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  const { amountPerMint } = await sim.chain();

  await sim.nextTransaction("front-run");
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  expect(await sim.logCount(OWN_TRANSACTION_REFUSED)).toBeGreaterThanOrEqual(1);
  await expect(sim.header().streak).toHaveText("1 day", { timeout: 90_000 });
  await sim.shot("pia-front-run-claim-done");

  // One enrolment, one mint, and the ORO in her wallet: the copy could send nothing anywhere else.
  const pia = await sim.walletAddress("pia-main");
  await expect
    .poll(async () => (await indexed<{ session: { idkitSessionId: string } | null }>(sim, `/world-id/${pia}`)).session?.idkitSessionId ?? null, { timeout: 60_000 })
    .toMatch(/^session_[0-9a-f]{128}$/);
  expect((await indexed<{ numOfMints: number }>(sim, `/streaks/${pia}`)).numOfMints).toBe(1);
  await expect.poll(() => sim.walletOro("pia-main"), { timeout: 60_000 }).toBe(amountPerMint);
  expect(await sim.logCount(UNIQUENESS_PROOF("Pia"))).toBe(1);

  // Nothing kept waits to be sent again: the next launch shows the countdown, not a slider or a verify button.
  await sim.relaunch();
  await expect(app.getByRole("timer")).toBeVisible({ timeout: 60_000 });
  await expect(app.getByRole("button", { name: "Verify with World ID" })).toHaveCount(0);
});

test("8k. a front-runner lands a copy of his move first: it moves him, his streak goes with him, and the card is gone", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("quinn-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  const quinn = await sim.walletAddress("quinn-main");
  // His 3.0 claim first: the move carries it to his session.
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await sim.relaunch();
  await expect.poll(async () => (await indexed<{ numOfMints: number }>(sim, `/streaks/${quinn}`)).numOfMints, { timeout: 60_000 }).toBe(1);

  const card = app.getByRole("region", { name: "Move to World ID 4.0" });
  await expect(card).toBeVisible({ timeout: 60_000 });
  await sim.nextTransaction("front-run");
  await card.getByRole("button", { name: "Move to World ID 4.0" }).click();
  await expect(card).toBeHidden({ timeout: 120_000 });
  expect(await sim.logCount(OWN_TRANSACTION_REFUSED)).toBeGreaterThanOrEqual(1);
  await expect
    .poll(async () => (await indexed<{ movedToWorldId4: boolean }>(sim, `/world-id/${quinn}`)).movedToWorldId4, { timeout: 60_000 })
    .toBe(true);
  expect(await sim.logCount(UNIQUENESS_PROOF("Quinn"))).toBe(1);
  await sim.shot("quinn-front-run-moved");

  // Still one human with his history: the next day's claim proves his session and his streak continues.
  await sim.advanceHours(24);
  await sim.appReady();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 60_000 });
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await expect(sim.header().streak).toHaveText("2 days", { timeout: 90_000 });
  await expect.poll(async () => (await indexed<{ numOfMints: number }>(sim, `/streaks/${quinn}`)).numOfMints, { timeout: 60_000 }).toBe(2);
});
