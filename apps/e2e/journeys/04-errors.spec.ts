import { expect, test } from "../support/fixtures.js";
import type { Simulator } from "../support/simulator.js";

/**
 * 5. Errors (the killswitch is the last journey of the run, 10-killswitch.spec.ts: it ends minting for good).
 * Carol has not claimed yet, so the claim screen still offers her the invite card.
 */
test("5. errors: unknown code, own code, second referral show the catalogue texts; a failing mint resets the slider", async ({ sim }) => {
  const { app } = sim;
  await sim.open();

  // Carol's own code and Alice's code, from their share screens.
  await sim.selectWallet("alice-main");
  const aliceCode = await ownCode(sim);
  await sim.selectWallet("carol-main");
  const carolCode = await ownCode(sim);

  await sim.tab("Claim");
  await sim.verify();
  await expect(app.getByRole("slider")).toBeVisible();
  const modal = app.getByRole("dialog", { name: "Enter an invite code" });
  const openModal = async () => {
    if (await modal.isVisible()) return;
    await app.getByRole("button", { name: "Enter code" }).click();
    await expect(modal).toBeVisible();
  };
  const submitCode = async (code: string) => {
    await modal.getByRole("textbox", { name: "Invite code" }).fill(code);
    await modal.getByRole("button", { name: "Submit" }).click();
  };

  // An unknown code.
  await openModal();
  await submitCode(carolCode === "ZZZZ2345" ? "ZZZZ2346" : "ZZZZ2345");
  await expect(modal.getByText("The code you entered does not exist.")).toBeVisible();
  await sim.shot("unknown-code");

  // Her own code.
  await submitCode(carolCode);
  await expect(modal.getByText("You cannot refer yourself.")).toBeVisible();
  await sim.shot("own-code");

  // Alice's code is accepted; a second one (by deep link) is refused.
  await submitCode(aliceCode);
  await expect(modal).toBeHidden({ timeout: 60_000 });
  await expect(app.getByRole("status").filter({ hasText: /invited you! Claim your first ORO|Invite accepted!/ })).toBeVisible();
  await sim.shot("code-accepted");
  const bobCode = await (async () => {
    await sim.selectWallet("bob-main");
    return ownCode(sim);
  })();
  await sim.selectWallet("carol-main");
  await sim.openDeepLink({ referralCode: bobCode, referredBy: "bob" });
  await expect(app.getByRole("status").filter({ hasText: "You have already accepted an invite." })).toBeVisible({ timeout: 60_000 });
  await sim.shot("second-referral");

  // A failing mint transaction: the slider springs back and the claim can be tried again.
  await sim.nextTransaction("fail");
  await sim.slideToClaim();
  const thumb = app.getByRole("slider");
  await expect(thumb).toHaveAttribute("aria-valuenow", "0", { timeout: 60_000 });
  await expect(thumb).not.toHaveAttribute("aria-disabled", "true");
  await expect(app.locator(".claim--success")).toHaveCount(0);
  await sim.shot("failed-mint-reset");
  const state = await sim.state();
  expect(state.log.map((entry) => entry.summary).join("\n")).toMatch(/sendTransaction: failed/);
  expect(state.humans.find((human) => human.id === "carol")?.wallets[0]?.oro).toBe("0");
});

/** The signed-in user's invite code, read from the share screen's copy button; leaves the app on the claim tab. */
async function ownCode(sim: Simulator): Promise<string> {
  await sim.tab("Share");
  await sim.ensureSignedIn();
  const copy = sim.app.getByRole("button", { name: /^Copy your invite code [A-Z0-9]+$/ });
  await expect(copy).toBeVisible({ timeout: 60_000 });
  const code = /([A-Z0-9]+)$/.exec((await copy.getAttribute("aria-label")) ?? "")?.[1] ?? "";
  expect(code).toMatch(/^[A-Z0-9]{8}$/);
  await sim.tab("Claim");
  return code;
}
