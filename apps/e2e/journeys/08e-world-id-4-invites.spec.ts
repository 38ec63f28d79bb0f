import { catalogue, text } from "../support/catalogue.js";
import { expect, test } from "../support/fixtures.js";
import { deepLinkOf } from "../support/share-link.js";

/**
 * 8e. Invites and reminders between two World ID 4.0 humans: Erin (enrolled in 8b) shares her code; Grace, verified
 * after June 2026 too, opens the invitation, enrols with her first claim, and is Erin's referee. Both rewards are
 * claimed on chain, and Grace's reminder arrives: to the API they are humans like any other, keyed by their 4.0
 * enrolment.
 */
test("8e. a 4.0 human invites another: the referee enrols and claims, both rewards are paid on chain, the reminder arrives", async ({ sim }) => {
  const { app } = sim;
  await sim.open();

  // Erin shares her code.
  await sim.selectWallet("erin-main");
  await sim.ensureSignedIn();
  await sim.tab("Share");
  const copy = app.getByRole("button", { name: /^Copy your invite code [A-Z0-9]+$/ });
  await expect(copy).toBeVisible({ timeout: 60_000 });
  const code = /([A-Z0-9]+)$/.exec((await copy.getAttribute("aria-label")) ?? "")?.[1] ?? "";
  await app.getByRole("button", { name: "Share invite" }).click();
  // The simulator keeps every share of the run (newest first): Erin's is the one with her code.
  const erinsShare = async () => (await sim.state()).shares.find((share) => share.text?.includes(code));
  await expect.poll(async () => (await erinsShare()) !== undefined).toBe(true);
  const link = deepLinkOf((await erinsShare())?.url ?? "");
  expect(link.referralCode).toBe(code);

  // Grace opens the invitation, verifies (World App makes her no 3.0 proof: she will enrol), approves and claims.
  await sim.selectWallet("grace-main");
  await sim.notificationAnswer("allow");
  await sim.openDeepLink({ referralCode: link.referralCode, referredBy: link.referredBy ?? "" });
  await sim.signIn();
  const invite = app.getByRole("region", { name: "Your invite" });
  await expect(invite).toContainText(`Invite code ${code}`);
  await sim.verify();
  await invite.getByRole("button", { name: "Approve code" }).click();
  await expect(app.getByRole("status").filter({ hasText: /invited you! Claim your first ORO|Invite accepted!/ })).toBeVisible({ timeout: 60_000 });
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  await sim.shot("grace-enrolled-and-claimed");
  const grace = (await sim.walletAddress("grace-main")).toLowerCase();
  const status = (await (await fetch(`${sim.stack.indexerUrl}/world-id/${grace}`)).json()) as { session: { idkitSessionId: string } | null; movedToWorldId4: boolean };
  expect(status.session?.idkitSessionId).toMatch(/^session_[0-9a-f]{128}$/);
  expect(status.movedToWorldId4).toBe(false);

  // The reminder offer after her claim: allowed, scheduled for her next claim.
  const en = catalogue("en");
  const offer = app.getByRole("dialog", { name: text(en, "notifications.title") });
  const scheduled = sim.page.waitForResponse((response) => new URL(response.url()).pathname === "/api/notifications/oro_claim");
  await expect(offer).toBeVisible({ timeout: 30_000 });
  await offer.getByRole("button", { name: text(en, "notifications.enable") }).click();
  expect((await scheduled).status()).toBe(200);

  // Grace claims her referee reward on chain.
  await sim.relaunch();
  await sim.tab("Share");
  const referee = app.getByRole("region", { name: /^Invited by / });
  await expect(referee).toBeVisible({ timeout: 120_000 });
  await expect(referee).toContainText("erin");
  const oroOf = async (wallet: "grace-main" | "erin-main") => Number((await sim.walletOro(wallet)) ?? "0");
  const graceBefore = await oroOf("grace-main");
  await referee.getByRole("button", { name: "Claim" }).click();
  const success = app.getByRole("dialog").filter({ hasText: "You earned extra ORO from" });
  await expect(success).toBeVisible({ timeout: 90_000 });
  await success.getByRole("button", { name: "Great!" }).click();
  await expect.poll(() => oroOf("grace-main"), { timeout: 60_000 }).toBeGreaterThan(graceBefore);

  // Erin sees Grace's invite and claims its reward on chain.
  await sim.selectWallet("erin-main");
  await sim.ensureSignedIn();
  await sim.tab("Share");
  const claimInvite = app.getByRole("button", { name: /^Claim \d/ });
  const paid = app.getByRole("button", { name: /^Paid: / });
  await expect(claimInvite.or(paid).first()).toBeVisible({ timeout: 120_000 });
  await expect(app.getByText("grace", { exact: true })).toBeVisible();
  const erinBefore = await oroOf("erin-main");
  if (await claimInvite.isVisible()) await claimInvite.click();
  await expect(paid).toBeVisible({ timeout: 90_000 });
  await expect.poll(() => oroOf("erin-main"), { timeout: 60_000 }).toBeGreaterThan(erinBefore);
  await sim.shot("erin-invite-paid");

  // A day later (chain time) Grace's reminder has been sent, once.
  await sim.advanceHours(24);
  await expect.poll(async () => (await sim.reminders()).filter((reminder) => reminder.address.toLowerCase() === grace).length, { timeout: 90_000 }).toBe(1);
});
