import { expect, test } from "../support/fixtures.js";

/**
 * 8b. World ID 4.0, with Erin: verified after World App stopped making 3.0 credentials (June 2026), so World App
 * gives her no 3.0 proof. She enrols (World App creates an ORO session, then proves she is one human for the
 * enrolment action: two prompts), the enrolment is her first claim, and each later claim proves her session afresh.
 */
test("8b. a World ID 4.0 human enrols, claims, and claims again the next day with a session proof; her streak grows", async ({ sim }) => {
  const { app } = sim;
  const header = sim.header();
  await sim.open();
  await sim.selectWallet("erin-main");
  await sim.ensureSignedIn();
  await sim.verify();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 90_000 });
  await sim.shot("erin-enrolled-ready");
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await expect(header.streak).toHaveText("1 day", { timeout: 90_000 });
  await sim.shot("erin-day-1");

  await sim.advanceHours(24);
  await sim.appReady();
  await expect(header.root).toHaveClass(/header--gold/, { timeout: 60_000 });
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await expect(header.streak).toHaveText("2 days", { timeout: 90_000 });
  await sim.shot("erin-day-2-streak-2");

  // The chain records both claims for one human, under her session.
  const erin = await sim.walletAddress("erin-main");
  const status = (await (await fetch(`${sim.stack.indexerUrl}/world-id/${erin}`)).json()) as { session: { idkitSessionId: string } | null };
  expect(status.session?.idkitSessionId).toMatch(/^session_[0-9a-f]{128}$/);
});

/**
 * 8c. Alice, verified before World ID 4.0, claims with 3.0 proofs. Her World App makes 4.0 proofs, so the app invites
 * her to move: three prompts and one transaction carry her last claim time and count to a 4.0 session and close her
 * 3.0 path. She stays one human: her next claim (with a session proof) continues her history under the same key.
 */
test("8c. a 3.0 human moves to World ID 4.0 once, keeps her history, and claims with her session", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("alice-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  const alice = await sim.walletAddress("alice-main");
  type Streak = { nullifierHash: string | null; numOfMints: number };
  const streak = async () => (await (await fetch(`${sim.stack.indexerUrl}/streaks/${alice}`)).json()) as Streak;
  // A 3.0 claim first when one is open (journey 1 made hers; a run of this journey alone makes one now).
  if (await app.getByRole("slider").isVisible()) {
    await sim.slideToClaim();
    await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
    await sim.relaunch();
  }
  await expect.poll(async () => (await streak()).numOfMints, { timeout: 60_000 }).toBeGreaterThan(0);
  const before = await streak();
  const header = sim.header();
  await expect(header.streak).toHaveText(/^\d+ days?$/, { timeout: 60_000 });
  const streakBefore = Number.parseInt((await header.streak.textContent()) ?? "", 10);

  const card = app.getByRole("region", { name: "Move to World ID 4.0" });
  await expect(card).toBeVisible({ timeout: 60_000 });
  await sim.shot("alice-move-invitation");
  await card.getByRole("button", { name: "Move to World ID 4.0" }).click();
  await expect(card).toBeHidden({ timeout: 120_000 });
  await expect
    .poll(async () => ((await (await fetch(`${sim.stack.indexerUrl}/world-id/${alice}`)).json()) as { movedToWorldId4: boolean }).movedToWorldId4, { timeout: 60_000 })
    .toBe(true);
  // Moved within her wait: no second claim through either path (the 3.0 proof is gone from the app, and the
  // contract refuses it: MovedToWorldId4), the countdown runs on from her last claim.
  await expect(app.getByRole("timer")).toBeVisible({ timeout: 60_000 });
  await expect(app.getByRole("slider")).toHaveCount(0);
  await sim.shot("alice-moved");

  await sim.advanceHours(24);
  await sim.appReady();
  await expect(app.getByRole("slider")).toBeVisible({ timeout: 60_000 });
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  // One human: the claim with her session counts under her 3.0 key, after her 3.0 claims; her streak continues.
  await expect(header.streak).toHaveText(new RegExp(`^${streakBefore + 1} days?$`), { timeout: 90_000 });
  await expect.poll(async () => (await streak()).numOfMints, { timeout: 60_000 }).toBe(before.numOfMints + 1);
  expect((await streak()).nullifierHash).toBe(before.nullifierHash);
  await sim.shot("alice-claimed-with-session");
});

/** World App's safe area: on a phone with a notch, nothing the user reads or taps sits under the system bars. */
test("8d. with World App's safe area set, the header's text and the tab bar stay clear of the system bars", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("erin-main");
  await sim.ensureSignedIn();
  await sim.notch(true);
  try {
    const screen = await sim.page.locator(".phone__screen").boundingBox();
    const streak = await sim.header().streak.boundingBox();
    const tabs = await app.locator("nav.tab-bar a").first().boundingBox();
    if (!screen || !streak || !tabs) throw new Error("not laid out");
    expect(streak.y - screen.y).toBeGreaterThanOrEqual(47);
    expect(tabs.y + tabs.height - screen.y).toBeLessThanOrEqual(844 - 34);
    await sim.shot("safe-area-notch");
  } finally {
    await sim.notch(false);
  }
});
