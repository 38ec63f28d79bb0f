import { formatUnits } from "viem";
import { expect, test } from "../support/fixtures.js";
import { E2E_POLL } from "../support/poll.js";

interface ApiStats {
  holders: number;
  totalSupply: string;
}

test("9. other screens: stats, about, apps and polls render live data; a vote moves the count", async ({ sim }) => {
  const { app } = sim;
  await sim.open();
  await sim.selectWallet("alice-main");
  await sim.ensureSignedIn();

  // Stats: total supply from the chain, holders through the API (the indexer), the user's streak.
  await sim.tab("About");
  await expect(app.getByRole("heading", { name: "About ORO" })).toBeVisible();
  await app.getByRole("link", { name: "Stats", exact: true }).click();
  await expect(app.getByRole("heading", { name: "Stats" })).toBeVisible();
  const stats = (await (await fetch(`${sim.stack.apiUrl}/api/stats`)).json()) as ApiStats;
  expect(stats.holders).toBeGreaterThan(0);
  const supply = Number(formatUnits(BigInt(stats.totalSupply), 18));
  const statsList = app.locator(".stats__list");
  await expect(statsList).toContainText(`${new Intl.NumberFormat("en").format(stats.holders)}`);
  await expect(statsList).toContainText(/[\d,.]+ ORO/);
  const shownSupply = Number(/([\d,.]+) ORO/.exec((await statsList.innerText()) ?? "")?.[1]?.replace(/,/g, "") ?? "NaN");
  expect(Math.abs(shownSupply - supply)).toBeLessThan(1);
  await expect(statsList).toContainText(/\d+ days?/);
  await sim.shot("stats");

  // About: the estimated human count, the app cards.
  await sim.tab("About");
  await expect(app.getByTestId("human-count")).toHaveText(/\d{1,3}(,\d{3})+/);
  await expect(app.getByRole("list", { name: "Apps" }).getByRole("listitem").first()).toBeVisible();
  await sim.shot("about");

  // Apps: the directory.
  await app.getByRole("link", { name: "Apps", exact: true }).click();
  await expect(app.getByRole("heading", { name: "Partner mini apps" })).toBeVisible();
  await sim.shot("apps");

  // Polls: the poll created with the API's operator command; a vote moves its count.
  await sim.tab("About");
  await app.getByRole("link", { name: "Polls", exact: true }).click();
  const poll = app.getByRole("article", { name: E2E_POLL.question.en });
  await expect(poll).toBeVisible({ timeout: 60_000 });
  await expect(poll).toContainText("0 votes in total");
  await sim.shot("polls-before");
  const option = poll.getByRole("button", { name: /^Share/ });
  await option.click();
  await expect(option).toHaveAttribute("aria-pressed", "true", { timeout: 60_000 });
  await expect(poll).toContainText("1 vote in total");
  await expect(option).toContainText("1 vote");
  await sim.shot("polls-voted");
  // Changing the vote moves it, the total stays.
  const other = poll.getByRole("button", { name: /^Stats/ });
  await other.click();
  await expect(other).toHaveAttribute("aria-pressed", "true", { timeout: 60_000 });
  await expect(option).toContainText("0 votes");
  await expect(poll).toContainText("1 vote in total");
  await sim.shot("polls-changed");
});
