import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CoinRain } from "../src/features/after-claim/CoinRain";
import { ApiRequestError } from "../src/lib/api";
import { readStored, writeStored } from "../src/lib/storage";
import type { FakeOptions } from "./fakes";
import { USER } from "./fakes";
import { flush, renderApp } from "./render-app";

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Renders a verified user with a claim ready, slides, and stops the clock at the moment the claim succeeded. */
async function claimSuccessfully(options: FakeOptions = {}) {
  const app = renderApp({ signedIn: true, verified: true, options: { mintConfirmsAfterReads: 1, ...options } });
  await flush(10);
  const thumb = await vi.waitFor(() => screen.getByRole("slider"));
  fireEvent.pointerDown(thumb, { clientX: 0, pointerType: "mouse" });
  fireEvent.pointerMove(window, { clientX: 5000, pointerType: "mouse" });
  fireEvent.pointerUp(window, { pointerType: "mouse" });
  for (let i = 0; i < 20 && !screen.queryByRole("heading", { name: "+0.5 ORO" }); i++) await flush(0);
  expect(screen.getByRole("heading", { name: "+0.5 ORO" })).toBeInTheDocument();
  return app;
}

const names = (app: Awaited<ReturnType<typeof claimSuccessfully>>) => app.fakes.calls.map((call) => call.name);

describe("coin rain", () => {
  it("drops a coin every 80 ms for 3 s, with radii 18, 24 and 36, and the overlay stays 5 s", () => {
    render(<CoinRain startedAt={Date.now()} />);
    const coins = () => document.querySelectorAll(".coin-rain__coin");
    expect(coins()).toHaveLength(1);
    act(() => void vi.advanceTimersByTime(800));
    expect(coins()).toHaveLength(11);
    act(() => void vi.advanceTimersByTime(2200));
    expect(coins()).toHaveLength(38);
    act(() => void vi.advanceTimersByTime(1500));
    expect(coins()).toHaveLength(38);
    const radii = new Set([...coins()].map((coin) => (coin as HTMLElement).dataset.radius));
    expect(radii).toEqual(new Set(["18", "24", "36"]));
    expect((coins()[2] as HTMLElement).style.width).toBe("72px");
    expect(screen.getByTestId("coin-rain")).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(499));
    expect(screen.getByTestId("coin-rain")).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(1));
    expect(screen.queryByTestId("coin-rain")).not.toBeInTheDocument();
  });
});

describe("after a successful claim", () => {
  it("runs the timeline: rain, eligibility, swap reward, streak cache, monitoring, then email and reminder at 1 s, swap reward at 4 s", async () => {
    writeStored("referralEligible", true);
    const app = await claimSuccessfully();
    expect(screen.getByTestId("coin-rain")).toBeInTheDocument();
    expect(readStored("referralEligible")).toBe(false);
    expect(names(app)).toContain("clearStreakCache");
    expect(names(app)).toContain("getSwapReward");
    expect(app.fakes.events).toContain("claim_success");

    await flush(999);
    expect(screen.queryByRole("textbox", { name: "Email" })).not.toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await flush(1);
    await flush(0);
    expect(screen.getByRole("textbox", { name: "Email" })).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Never miss a claim" })).toBeInTheDocument();
    expect(readStored("hasSeenNotificationModal")).toBe(true);

    // The swap-reward offer waits its turn behind the open reminder modal.
    await flush(3000);
    expect(screen.queryByRole("dialog", { name: "You earned a swap reward" })).not.toBeInTheDocument();
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Not now" }));
    await flush(0);
    expect(screen.getByRole("dialog", { name: "You earned a swap reward" })).toHaveTextContent("You swapped $12.50");

    await flush(1000);
    expect(screen.queryByTestId("coin-rain")).not.toBeInTheDocument();
    const streakReads = app.fakes.calls.filter((call) => call.name === "getCurrentStreak");
    expect(streakReads.at(-1)?.args[1]).toEqual({ bypassCache: true });
  });

  it("reloads the streak with the bypass flag 5 s after the claim, not before", async () => {
    const app = await claimSuccessfully();
    const bypassed = () => app.fakes.calls.filter((call) => call.name === "getCurrentStreak" && (call.args[1] as { bypassCache: boolean }).bypassCache);
    await flush(4990);
    expect(bypassed()).toHaveLength(0);
    await flush(20);
    expect(bypassed()).toHaveLength(1);
  });

  it("keeps the streak shown when its reload is refused for too many requests, and shows the new one when the API said to ask again", async () => {
    writeStored("hasSeenNotificationModal", true);
    const limited = () => new ApiRequestError(429, "RATE_LIMITED", "too many requests for this address: retry in 20 s", 20_000);
    const app = await claimSuccessfully({ streak: { currentStreak: 4 }, streakAfterClaim: { streak: { currentStreak: 5 }, refusals: [limited()] } });
    const bypassed = () => app.fakes.calls.filter((call) => call.name === "getCurrentStreak" && (call.args[1] as { bypassCache: boolean }).bypassCache);
    await flush(5000);
    await flush(0);
    expect(bypassed()).toHaveLength(1);
    // Refused: the header keeps the streak it had (not "--"), and nothing is asked before the API's 20 s.
    expect(screen.getByTestId("streak")).toHaveTextContent("4 days");
    await flush(19_990);
    expect(bypassed()).toHaveLength(1);
    expect(screen.getByTestId("streak")).toHaveTextContent("4 days");
    await flush(20);
    await flush(0);
    expect(bypassed()).toHaveLength(2);
    expect(screen.getByTestId("streak")).toHaveTextContent("5 days");
  });

  it("shows the swap reward at 4 s when no other modal is open", async () => {
    writeStored("hasSeenNotificationModal", true);
    await claimSuccessfully();
    await flush(3990);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await flush(20);
    await flush(0);
    expect(screen.getByRole("dialog", { name: "You earned a swap reward" })).toBeInTheDocument();
  });

  it.each(["Ineligible", "Claimed"] as const)("offers no swap reward when its status is %s", async (rewardStatus) => {
    writeStored("hasSeenNotificationModal", true);
    await claimSuccessfully({ swapReward: { rewardStatus, totalSwapVolumeUsd: 1, minSwapVolumeUsd: 5 } });
    await flush(6000);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows no email form once an email was submitted, and no reminder modal once it was seen", async () => {
    writeStored("emailSubmitted", true);
    writeStored("hasSeenNotificationModal", true);
    await claimSuccessfully({ swapReward: { rewardStatus: "Ineligible", totalSwapVolumeUsd: 0, minSwapVolumeUsd: 5 } });
    await flush(5000);
    expect(screen.queryByRole("textbox", { name: "Email" })).not.toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows no email form when the API already has the user's email (given on another device), and remembers it", async () => {
    writeStored("hasSeenNotificationModal", true);
    const app = await claimSuccessfully({ emailSubmitted: true, swapReward: { rewardStatus: "Ineligible", totalSwapVolumeUsd: 0, minSwapVolumeUsd: 5 } });
    await flush(1000);
    await flush(0);
    expect(names(app)).toContain("getEmailSubmitted");
    expect(screen.queryByRole("textbox", { name: "Email" })).not.toBeInTheDocument();
    expect(readStored("emailSubmitted")).toBe(true);
  });

  it.each([
    [4.99, 5, false],
    [5, 5, true],
    [5, 10, false],
    [10, 10, true],
  ])("an Eligible swap reward at %s USD of a served %s USD minimum is a success offered in the modal: %s", async (totalSwapVolumeUsd, minSwapVolumeUsd, offered) => {
    writeStored("hasSeenNotificationModal", true);
    await claimSuccessfully({ swapReward: { rewardStatus: "Eligible", totalSwapVolumeUsd, minSwapVolumeUsd } });
    await flush(4000);
    await flush(0);
    if (offered) expect(screen.getByRole("dialog", { name: "You earned a swap reward" })).toHaveTextContent(`You swapped $${totalSwapVolumeUsd.toFixed(2)}`);
    else expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows no reminder modal where notifications are not available", async () => {
    await claimSuccessfully({ notificationsAvailable: false, swapReward: { rewardStatus: "Claimed", totalSwapVolumeUsd: 9, minSwapVolumeUsd: 5 } });
    await flush(5000);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(readStored("hasSeenNotificationModal")).toBe(false);
  });

  it("the email form validates, submits once, and is never shown again", async () => {
    writeStored("hasSeenNotificationModal", true);
    const app = await claimSuccessfully({ swapReward: { rewardStatus: "Ineligible", totalSwapVolumeUsd: 0, minSwapVolumeUsd: 5 } });
    await flush(1000);
    const input = screen.getByRole("textbox", { name: "Email" });
    fireEvent.change(input, { target: { value: "not-an-email" } });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(screen.getByText("Enter a valid email address.")).toBeInTheDocument();
    fireEvent.change(input, { target: { value: "ana@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    for (let i = 0; i < 10 && !screen.queryByText("Thanks! You are on the list."); i++) await flush(1);
    expect(screen.getByText("Thanks! You are on the list.")).toBeInTheDocument();
    expect(app.fakes.calls.find((call) => call.name === "submitEmail")?.args).toEqual([USER, "ana@example.com"]);
    expect(readStored("emailSubmitted")).toBe(true);
  });

  it("accepting the reminder asks for permission, logs it and schedules the API reminder", async () => {
    const app = await claimSuccessfully({ swapReward: { rewardStatus: "Claimed", totalSwapVolumeUsd: 9, minSwapVolumeUsd: 5 } });
    await flush(1000);
    await flush(0);
    fireEvent.click(screen.getByRole("button", { name: "Turn on reminders" }));
    await flush(0);
    await flush(0);
    expect(names(app)).toContain("requestNotificationPermission");
    expect(app.fakes.events).toContain("notification_permission");
    expect(app.fakes.calls.find((call) => call.name === "scheduleClaimReminder")?.args).toEqual([USER, "en"]);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});
