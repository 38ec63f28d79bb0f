import { languageOfTag } from "@oro/clients";
import { catalogue, text } from "./catalogue.js";
import { expect } from "./fixtures.js";
import type { Simulator, WalletId } from "./simulator.js";

/**
 * Sets `wallet`'s phone to `deviceLanguage` (World App's language: World delivers reminders in it), signs in,
 * verifies and claims, then allows reminders when the app offers them. The phone stays in that language: each wallet
 * is its own phone, and World reads the language when a reminder is sent.
 */
export async function claimAndAllowReminders(sim: Simulator, wallet: WalletId, deviceLanguage: string): Promise<void> {
  const { app } = sim;
  // The app shows one of its eight languages (English for any other) and asks for reminders in it.
  const language = languageOfTag(deviceLanguage) ?? "en";
  const strings = catalogue(language);
  await sim.selectWallet(wallet);
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  await sim.notificationAnswer("allow");
  await sim.setLanguage(deviceLanguage);
  const verify = app.getByRole("button", { name: text(strings, "claim.verify") });
  const slider = app.getByRole("slider");
  // The language change relaunches the app; on a loaded machine it can come back signed out (the session is
  // read again): then the person signs in again, as they would.
  const signIn = app.getByRole("button", { name: text(strings, "claim.signIn") });
  await expect(verify.or(slider).or(signIn).first()).toBeVisible({ timeout: 60_000 });
  if (await signIn.isVisible()) await signIn.click();
  await expect(verify.or(slider).first()).toBeVisible({ timeout: 60_000 });
  if (await verify.isVisible()) await verify.click();
  await sim.slideToClaim();
  await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });
  const offer = app.getByRole("dialog", { name: text(strings, "notifications.title") });
  const scheduled = sim.page.waitForResponse((response) => new URL(response.url()).pathname === "/api/notifications/oro_claim");
  await expect(offer).toBeVisible({ timeout: 30_000 });
  await offer.getByRole("button", { name: text(strings, "notifications.enable") }).click();
  const answer = await scheduled;
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { locale: string }).locale).toBe(language);
  await sim.shot(`${wallet}-reminders-allowed`);
}
