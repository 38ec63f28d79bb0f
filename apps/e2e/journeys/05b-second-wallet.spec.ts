import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "../support/fixtures.js";

/**
 * 4. Referral, continued. In journey 4 Bob's second wallet approved Alice's code; the API can tell which human a
 * wallet belongs to only from its mints (a World ID nullifier hash on chain), so it recorded that approval
 * pending. Now that chain time moved on (journey 3), Bob's human may claim again, with the second wallet: at that
 * first mint the referral is refused, because the human is already referred through his main wallet.
 */
test("4. referral, continued: B's second wallet (the same human) cannot be referred again: no second reward at its first mint", async ({ sim }) => {
  const { app } = sim;
  const apiLog = path.join(sim.stack.logsDir, "api.log");
  const rejections = () => readFileSync(apiLog, "utf8").split("\n").filter((line) => line.includes("referral rejected")).length;
  const before = rejections();
  await sim.open();
  await sim.selectWallet("bob-second");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await sim.shot("second-wallet-claimed");

  // The API refuses the pending referral at this mint (its log says so), and no referee reward appears.
  await expect.poll(rejections, { timeout: 120_000 }).toBe(before + 1);
  await sim.relaunch();
  await sim.tab("Share");
  await expect(app.getByTestId("total-earned")).toBeVisible({ timeout: 60_000 });
  await expect(app.getByRole("region", { name: /^Invited by / })).toHaveCount(0);
  await sim.shot("second-wallet-no-reward");

  // Alice still has one invite: Bob's main wallet.
  await sim.selectWallet("alice-main");
  await sim.ensureSignedIn();
  await sim.tab("Share");
  await expect(app.getByTestId("invite")).toHaveCount(1, { timeout: 60_000 });
  await expect(app.getByTestId("invite")).toContainText("bob");
  await sim.shot("a-still-one-invite");
});
