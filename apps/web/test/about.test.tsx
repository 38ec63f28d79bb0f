import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { estimatedHumans, HUMAN_COUNT, msUntilNextHour } from "../src/features/about/human-count";
import { changeLanguage } from "../src/i18n";
import { renderApp } from "./render-app";

const HOUR = 3_600_000;
const since = HUMAN_COUNT.since;

afterEach(async () => {
  vi.useRealTimers();
  await changeLanguage("en", { remember: false });
});

describe("the estimated human count", () => {
  it("is 1,850,000 plus 150 per whole hour since 1 April 2025", () => {
    expect(HUMAN_COUNT).toEqual({ base: 1_850_000, perHour: 150, since: Date.UTC(2025, 3, 1) });
    expect(estimatedHumans(since)).toBe(1_850_000);
    expect(estimatedHumans(since + 24 * HOUR)).toBe(1_850_000 + 24 * 150);
  });

  it("changes exactly at each hour boundary", () => {
    expect(estimatedHumans(since + HOUR - 1)).toBe(1_850_000);
    expect(estimatedHumans(since + HOUR)).toBe(1_850_150);
    expect(estimatedHumans(since + 5 * HOUR - 1)).toBe(1_850_000 + 4 * 150);
    expect(estimatedHumans(since + 5 * HOUR)).toBe(1_850_000 + 5 * 150);
    expect(msUntilNextHour(since + 5 * HOUR - 1)).toBe(1);
    expect(msUntilNextHour(since + 5 * HOUR)).toBe(HOUR);
  });

  it("never goes below the base before the fixed instant", () => {
    expect(estimatedHumans(since - 10 * HOUR)).toBe(1_850_000);
  });

  it("updates on the page when the hour turns, formatted in the user's language", async () => {
    vi.useFakeTimers({ now: since + 1000 * HOUR - 2000, shouldAdvanceTime: true });
    renderApp({ path: "/about" });
    const count = await screen.findByTestId("human-count");
    expect(count).toHaveTextContent("1,999,850");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2100);
    });
    await waitFor(() => expect(screen.getByTestId("human-count")).toHaveTextContent("2,000,000"));
    await act(async () => {
      await changeLanguage("es", { remember: false });
    });
    await waitFor(() => expect(screen.getByTestId("human-count")).toHaveTextContent("2.000.000"));
  });
});
