import { expect, test } from "../support/fixtures.js";

/**
 * 11. World ID 4.0, with Erin: verified after World App stopped making 3.0 credentials (June 2026), so World App
 * gives her no 3.0 proof. She enrols (World App creates an ORO session, then proves she is one human for the
 * enrolment action: two prompts), the enrolment is her first claim, and each later claim proves her session afresh.
 */
test("11. a World ID 4.0 human enrols, claims, and claims again the next day with a session proof; her streak grows", async ({ sim }) => {
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
  await expect(app.getByRole("timer")).toBeVisible({ timeout: 120_000 });
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
