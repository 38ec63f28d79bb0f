import type { Simulator } from "../support/simulator.js";
import { catalogue, text } from "../support/catalogue.js";
import { englishOn } from "../support/english.js";
import { expect, test } from "../support/fixtures.js";

/** What the user reads on the phone: the mini app's visible text (labels of controls included). */
async function visibleText(sim: Simulator): Promise<string> {
  return sim.app.locator("body").evaluate((body) => {
    const labels = [...body.querySelectorAll("[aria-label]")].map((element) => element.getAttribute("aria-label") ?? "");
    return `${(body as HTMLElement).innerText}\n${labels.join("\n")}`;
  });
}

for (const language of ["ja", "th"] as const) {
  test(`7. language ${language}: the claim and share screens show no English string`, async ({ sim }) => {
    const { app } = sim;
    const messages = catalogue(language);
    await sim.open();
    await sim.selectWallet("alice-main");
    await sim.ensureSignedIn();
    await sim.ensureVerified();
    await sim.setLanguage(language);
    try {
      // The claim screen (Alice claimed: the countdown, the price card, the header).
      await expect(app.locator("nav.tab-bar")).toContainText(text(messages, "tabs.claim"));
      await expect(app.getByRole("timer").or(app.getByRole("slider"))).toBeVisible({ timeout: 60_000 });
      await expect(sim.header().streak).not.toHaveText("--", { timeout: 60_000 });
      await sim.shot(`claim-${language}`);
      expect(englishOn(await visibleText(sim), language), "English on the claim screen").toEqual([]);

      // The share screen (code, totals, invites).
      await sim.tab(text(messages, "tabs.share"));
      await expect(app.getByRole("heading", { name: text(messages, "share.title") })).toBeVisible();
      await expect(app.getByTestId("total-earned")).toBeVisible({ timeout: 60_000 });
      await sim.shot(`share-${language}`);
      expect(englishOn(await visibleText(sim), language), "English on the share screen").toEqual([]);
    } finally {
      await sim.setLanguage("en");
    }
  });
}
