import { catalogue, text } from "../support/catalogue.js";
import type { Response } from "@playwright/test";
import { expect, test } from "../support/fixtures.js";

/**
 * 6. Claim reminders, with Carol in Spanish (her first claim; journey 5 left her ready after a failed mint).
 * The reminder is due when her next claim opens; the API's scheduler goes by the chain's clock when it runs
 * ahead, so moving chain time a day on delivers it.
 */
test("6. notifications: permission granted after a claim schedules a reminder, delivered once in the user's language after time moves", async ({ sim }) => {
  const { app } = sim;
  const es = catalogue("es");
  await sim.open();
  await sim.selectWallet("carol-main");
  await sim.ensureSignedIn();
  await sim.ensureVerified();
  await sim.notificationAnswer("allow");
  await sim.setLanguage("es");
  try {
    const carol = (await sim.walletAddress("carol-main")).toLowerCase();
    const verify = app.getByRole("button", { name: text(es, "claim.verify") });
    const slider = app.getByRole("slider");
    await expect(verify.or(slider).first()).toBeVisible({ timeout: 60_000 });
    if (await verify.isVisible()) await verify.click();
    await sim.shot("ready-es");
    await sim.slideToClaim();
    await expect(app.locator(".claim--success")).toBeVisible({ timeout: 90_000 });

    // The reminder offer after the claim: permission asked through World App, then the reminder scheduled.
    const offer = app.getByRole("dialog", { name: text(es, "notifications.title") });
    await expect(offer).toBeVisible({ timeout: 30_000 });
    await sim.shot("reminder-offer");
    // The app asks again (1 s, 2 s, 4 s later) while the API cannot tell when the next claim opens (a 503 when the
    // indexer is slow to answer, as on a loaded machine); a refusal (4xx) would be final.
    const isSchedule = (response: Response) => new URL(response.url()).pathname === "/api/notifications/oro_claim";
    const statuses: number[] = [];
    sim.page.on("response", (response) => {
      if (isSchedule(response)) statuses.push(response.status());
    });
    const scheduled = sim.page.waitForResponse((response) => isSchedule(response) && response.status() !== 429 && response.status() < 500, { timeout: 60_000 });
    await offer.getByRole("button", { name: text(es, "notifications.enable") }).click();
    const answer = await scheduled;
    expect(answer.status()).toBe(200);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    const { scheduledFor, locale } = (await answer.json()) as { scheduledFor: string; locale: string };
    expect(locale).toBe("es");
    expect(new Date(scheduledFor).getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    await expect.poll(async () => (await sim.state()).humans.find((human) => human.id === "carol")?.wallets[0]?.notifications).toBe("granted");
    const forCarol = async () => (await sim.reminders()).filter((reminder) => reminder.address.toLowerCase() === carol);
    expect(await forCarol()).toHaveLength(0);
    await sim.shot("reminder-scheduled");

    // A day later (chain time) the development transport has sent it, once, in Spanish.
    await sim.advanceHours(24);
    await expect.poll(async () => (await forCarol()).length, { timeout: 90_000 }).toBe(1);
    const [reminder] = await forCarol();
    expect(reminder?.language).toBe("es");
    await expect(sim.page.locator("#reminders")).toContainText(reminder?.title ?? "", { timeout: 30_000 });
    await sim.shot("reminder-delivered");
    // Once: after each of three more scheduler passes (counted by the API's metric) there is still one.
    for (let pass = 0; pass < 3; pass += 1) {
      await sim.reminderPassesGoBy(1);
      expect(await forCarol()).toHaveLength(1);
    }
  } finally {
    await sim.setLanguage("en");
  }
});
