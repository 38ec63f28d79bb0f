import { CLAIM_REMINDER_TEXTS } from "@oro/clients";
import { expect, test } from "../support/fixtures.js";
import { claimAndAllowReminders } from "../support/reminders.js";

/**
 * 6c. World delivers a reminder in the language of the user's World App, and delivers nothing to a user whose
 * language the request lacks: every request carries all 19 of World's languages. Julie's World App is in French, one
 * the mini app does not speak (it shows English), Karla's in Latin American Spanish (the app shows Spanish); both new
 * here. Each claims and allows reminders; a day later (chain time) each phone shows the claim reminder in its own
 * language, with the user's name where World puts it.
 */
test("6c. reminders in the World App's language: French for Julie, Latin American Spanish for Karla", async ({ sim }) => {
  // Two claims with relaunches in other languages and a scheduler wait (journey 6b takes as long for its two).
  test.slow();
  await sim.open();
  await claimAndAllowReminders(sim, "julie-main", "fr");
  await claimAndAllowReminders(sim, "karla-main", "es_419");
  const to = async (username: string) => (await sim.shownReminders()).filter((reminder) => reminder.username === username);

  await sim.advanceHours(24);
  for (const [username, language] of [["julie", "fr"], ["karla", "es_419"]] as const) {
    await expect.poll(async () => (await to(username)).length, { timeout: 90_000 }).toBe(1);
    const text = CLAIM_REMINDER_TEXTS[language];
    expect((await to(username))[0]).toMatchObject({
      language,
      sent: true,
      title: text.title,
      message: text.message,
      shown: { title: text.title, message: text.message.replace("${username}", username) },
    });
  }

  // Each phone shows its own, as World App shows it.
  for (const [wallet, username, language] of [["julie-main", "julie", "fr"], ["karla-main", "karla", "es_419"]] as const) {
    await sim.selectWallet(wallet);
    const banner = sim.page.locator("#phone-notification");
    await expect(banner).toContainText(CLAIM_REMINDER_TEXTS[language].message.replace("${username}", username), { timeout: 30_000 });
    await expect(banner).toContainText(CLAIM_REMINDER_TEXTS[language].title);
    await sim.page.locator(".phone").screenshot({ path: test.info().outputPath(`${username}-reminder-${language}.png`) });
  }
});
