import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PARTNER_APPS } from "../src/data/partner-apps";
import { LANGUAGES } from "../src/i18n/languages";
import { readStored, writeStored } from "../src/lib/storage";
import { renderApp } from "./render-app";

afterEach(() => {
  vi.useRealTimers();
});

describe("stats", () => {
  it("shows total supply from the chain, unique holders from the API and the header's streak", async () => {
    const app = renderApp({ path: "/stats", signedIn: true, options: { streak: { currentStreak: 6 }, holders: 48_213 } });
    await waitFor(() => expect(screen.getByText("1,234,567.5 ORO")).toBeInTheDocument());
    expect(await screen.findByText("48,213")).toBeInTheDocument();
    expect(within(screen.getByText("Your streak").closest(".stat") as HTMLElement).getByText("6 days")).toBeInTheDocument();
    // The header and the screen share one streak query.
    await waitFor(() => expect(app.fakes.calls.filter((call) => call.name === "getCurrentStreak")).toHaveLength(1));
  });

  it("says a figure is unavailable instead of failing when the API cannot give it", async () => {
    renderApp({ path: "/stats", options: { holders: new Error("503") } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await vi.advanceTimersByTimeAsync(10_000);
    await waitFor(() => expect(screen.getByText("Unavailable right now")).toBeInTheDocument(), { timeout: 10_000 });
    expect(screen.getByText("Sign in to see your streak")).toBeInTheDocument();
  });
});

describe("apps", () => {
  it("lists every partner app from the data file and opens it through the wallet", async () => {
    const app = renderApp({ path: "/apps" });
    const list = await screen.findByRole("heading", { name: "Partner mini apps" });
    expect(list).toBeInTheDocument();
    for (const partner of PARTNER_APPS) expect(screen.getByRole("button", { name: new RegExp(`^${partner.name}`) })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: /Human Polls/ }));
    expect(app.fakes.opened).toEqual([expect.stringContaining("app_human_polls")]);
  });

  it("every partner app has its one line in all eight languages", () => {
    for (const partner of PARTNER_APPS) for (const language of LANGUAGES) expect(partner.tagline[language].trim(), `${partner.id} ${language}`).not.toBe("");
  });

  it("shows the control (a list) while experiment 2 is off", async () => {
    renderApp({ path: "/apps" });
    await screen.findByRole("heading", { name: "Partner mini apps" });
    expect(document.querySelector("[data-experiment-2]")).toHaveAttribute("data-experiment-2", "control");
    expect(document.cookie).not.toContain("oro_exp_2");
  });
});

describe("rewards and the tournament promo (on /apps)", () => {
  it("shows swap progress toward 5 USD, the price card and a swap button", async () => {
    const app = renderApp({ path: "/apps", signedIn: true, options: { swapReward: { rewardStatus: "Ineligible", totalSwapVolumeUsd: 2, minSwapVolumeUsd: 5 } } });
    const bar = await screen.findByRole("progressbar", { name: "Swap progress" });
    await waitFor(() => expect(bar).toHaveAttribute("aria-valuenow", "40"));
    expect(screen.getByText("$2.00 of $5.00 swapped")).toBeInTheDocument();
    expect(await screen.findByText("$0.0234")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Swap now" }));
    expect(app.fakes.opened).toHaveLength(1);
  });

  it("shows the success state from 5 USD of swaps", async () => {
    renderApp({ path: "/apps", signedIn: true, options: { swapReward: { rewardStatus: "Eligible", totalSwapVolumeUsd: 5, minSwapVolumeUsd: 5 } } });
    expect(await screen.findByRole("heading", { name: "Swap reward unlocked" })).toBeInTheDocument();
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
    expect(screen.queryByRole("button", { name: "Swap now" })).not.toBeInTheDocument();
  });

  it("takes the goal from the API's answer: 7 of a served 10 USD is progress, not yet the success", async () => {
    renderApp({ path: "/apps", signedIn: true, options: { swapReward: { rewardStatus: "Eligible", totalSwapVolumeUsd: 7, minSwapVolumeUsd: 10 } } });
    const bar = await screen.findByRole("progressbar", { name: "Swap progress" });
    await waitFor(() => expect(bar).toHaveAttribute("aria-valuenow", "70"));
    expect(screen.getByText("$7.00 of $10.00 swapped")).toBeInTheDocument();
    expect(screen.getByText("Swap at least $10.00 in the swap app to earn a bonus.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Swap reward" })).toBeInTheDocument();
  });

  it("names the minimum from the offer's public terms when signed out, without a progress bar", async () => {
    const app = renderApp({ path: "/apps", options: { swapReward: { rewardStatus: "Ineligible", totalSwapVolumeUsd: 0, minSwapVolumeUsd: 10 } } });
    expect(await screen.findByText("Swap at least $10.00 in the swap app to earn a bonus.")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(app.fakes.calls.some((call) => call.name === "getSwapRewardTerms")).toBe(true);
    expect(app.fakes.calls.some((call) => call.name === "getSwapReward")).toBe(false);
  });

  it("counts the days to March 13 from today, with 3 attempts, top 20 and $100 prizes", async () => {
    vi.useFakeTimers({ now: new Date(2027, 2, 10, 9), shouldAdvanceTime: true });
    renderApp({ path: "/apps" });
    expect(await screen.findByTestId("tournament-days")).toHaveTextContent("3 days until March 13");
    expect(screen.getByText("3 attempts per day")).toBeInTheDocument();
    expect(screen.getByText("Top 20 win prizes")).toBeInTheDocument();
    expect(screen.getByText("$100.00 prizes")).toBeInTheDocument();
  });

  it("on March 12 it is 1 day", async () => {
    vi.useFakeTimers({ now: new Date(2027, 2, 12, 23, 30), shouldAdvanceTime: true });
    renderApp({ path: "/apps" });
    expect(await screen.findByTestId("tournament-days")).toHaveTextContent("1 day until March 13");
  });
});

describe("about", () => {
  it("opens the app cards and the follow button through the wallet, and links to more screens", async () => {
    const app = renderApp({ path: "/about" });
    await userEvent.click(await screen.findByRole("button", { name: /UNO/ }));
    await userEvent.click(screen.getByRole("button", { name: /World ID/ }));
    await userEvent.click(screen.getByRole("button", { name: "Follow ORO" }));
    expect(app.fakes.opened).toHaveLength(3);
    expect(app.fakes.opened[2]).toMatch(/^https:\/\/x\.com\//);
    for (const name of ["Stats", "Apps", "Polls", "Terms"]) expect(screen.getByRole("link", { name })).toBeInTheDocument();
  });
});

describe("debug", () => {
  it("shows chain, API URL, wallet mode and every stored value with a reset", async () => {
    writeStored("hasSeenShareTerms", true);
    renderApp({ path: "/debug", signedIn: true });
    await screen.findByRole("heading", { name: "Debug" });
    expect(screen.getByText("Wallet mode").nextSibling).toHaveTextContent("World App");
    expect(screen.getByText("API URL")).toBeInTheDocument();
    const row = screen.getByText("hasSeenShareTerms").closest(".debug-list__row") as HTMLElement;
    expect(row).toHaveTextContent("true");
    expect(screen.getByText("session").closest(".debug-list__row")).not.toHaveTextContent('"t"');
    await userEvent.click(within(row).getByRole("button", { name: "Reset" }));
    expect(readStored("hasSeenShareTerms")).toBe(false);
    await waitFor(() => expect(row).toHaveTextContent("false"));
  });
});
