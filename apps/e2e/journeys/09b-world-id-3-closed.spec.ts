import { expect, test } from "../support/fixtures.js";

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
