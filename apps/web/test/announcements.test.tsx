import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { allAnnouncementIds, ANNOUNCEMENT_DELAY_MS, announcementsAt, HALVING_AT, nextAnnouncement } from "../src/features/announcements/announcements";
// Loaded up front, as the app loads it in the background: the fake clock here does not wait for module loading.
import "../src/features/announcements/AnnouncementHost";
import { readStored, writeStored } from "../src/lib/storage";
import { flush, renderApp } from "./render-app";

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  writeStored("seenAnnouncements", []);
});
afterEach(() => {
  vi.useRealTimers();
});

const dialogs = () => screen.queryAllByRole("dialog");

describe("the order of announcements", () => {
  it("is the halving (teaser before October 16, the announcement after), the referral, then partner apps", () => {
    expect(announcementsAt(HALVING_AT - 1).map((a) => a.id)).toEqual(["halving-teaser", "referral", "partner:oro-arena"]);
    expect(announcementsAt(HALVING_AT).map((a) => a.id)).toEqual(["halving", "referral", "partner:oro-arena"]);
    expect(new Date(HALVING_AT).toISOString()).toBe("2025-10-16T00:00:00.000Z");
  });

  it("skips what was seen, and what cannot be shown yet", () => {
    const after = HALVING_AT + 1;
    expect(nextAnnouncement(after, [])?.id).toBe("halving");
    expect(nextAnnouncement(after, ["halving"])?.id).toBe("referral");
    expect(nextAnnouncement(after, [], new Set(["halving"]))?.id).toBe("referral");
    expect(nextAnnouncement(after, allAnnouncementIds())).toBeNull();
  });
});

describe("announcement modals", () => {
  it("show once each, one per visit, in order; the halving's amount comes from the chain", async () => {
    const visit = async () => {
      const app = renderApp({ path: "/about" });
      await flush(10);
      expect(dialogs()).toHaveLength(0);
      await flush(ANNOUNCEMENT_DELAY_MS + 10);
      return app;
    };
    const first = await visit();
    expect(dialogs()).toHaveLength(1);
    expect(screen.getByRole("dialog", { name: "The halving is here" })).toHaveTextContent("the reward is 0.5 ORO per human per day");
    expect(readStored("seenAnnouncements")).toEqual(["halving"]);
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Got it" }));
    await flush(60_000);
    expect(dialogs()).toHaveLength(0);
    first.unmount();

    const second = await visit();
    expect(screen.getByRole("dialog", { name: "Invite friends, earn ORO" })).toBeInTheDocument();
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Invite friends" }));
    await flush(10);
    expect(second.location().pathname).toBe("/share");
    second.unmount();

    const third = await visit();
    expect(screen.getByRole("dialog", { name: "New: ORO Arena" })).toBeInTheDocument();
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Open ORO Arena" }));
    expect(third.fakes.opened).toEqual([expect.stringContaining("app_oro_arena")]);
    third.unmount();

    await visit();
    await flush(60_000);
    expect(dialogs()).toHaveLength(0);
    expect(readStored("seenAnnouncements")).toEqual(["halving", "referral", "partner:oro-arena"]);
  });

  it("before October 16 the teaser names the date", async () => {
    vi.setSystemTime(new Date("2025-10-10T09:00:00Z"));
    renderApp({ path: "/about" });
    await flush(ANNOUNCEMENT_DELAY_MS + 20);
    expect(screen.getByRole("dialog", { name: "Halving on October 16" })).toHaveTextContent("On October 16 the daily reward is cut in half");
  });

  it("never open under a finger: held on the slider past the quiet moment, none; released, one a quiet moment later", async () => {
    renderApp({ signedIn: true, verified: true });
    await flush(10);
    const thumb = await vi.waitFor(() => screen.getByRole("slider"));
    fireEvent.pointerDown(thumb, { clientX: 0, pointerType: "mouse", pointerId: 1 });
    fireEvent.pointerMove(window, { clientX: 40, pointerType: "mouse", pointerId: 1 });
    await flush(ANNOUNCEMENT_DELAY_MS * 3);
    expect(dialogs()).toHaveLength(0);
    expect(thumb).not.toHaveAttribute("aria-valuenow", "0");

    // Let go short of the end (no claim): the thumb springs back, and the quiet moment starts from here.
    fireEvent.pointerUp(window, { pointerType: "mouse", pointerId: 1 });
    await flush(ANNOUNCEMENT_DELAY_MS - 100);
    expect(dialogs()).toHaveLength(0);
    expect(thumb).toHaveAttribute("aria-valuenow", "0");
    await flush(200);
    expect(screen.getByRole("dialog", { name: "The halving is here" })).toBeInTheDocument();

    // A touch on the open announcement does not take it away.
    fireEvent.touchStart(screen.getByRole("dialog"), { touches: [{ clientX: 10, clientY: 10 }] });
    await flush(10);
    expect(dialogs()).toHaveLength(1);
  });

  it("wait behind the claim flow's after-claim modals and never show on top of them", async () => {
    const app = renderApp({ signedIn: true, verified: true, options: { mintConfirmsAfterReads: 1, emailSubmitted: true } });
    await flush(10);
    const thumb = await vi.waitFor(() => screen.getByRole("slider"));
    fireEvent.pointerDown(thumb, { clientX: 0, pointerType: "mouse" });
    fireEvent.pointerMove(window, { clientX: 5000, pointerType: "mouse" });
    fireEvent.pointerUp(window, { pointerType: "mouse" });
    for (let i = 0; i < 20 && !screen.queryByRole("heading", { name: "+0.5 ORO" }); i++) await flush(0);
    expect(screen.getByRole("heading", { name: "+0.5 ORO" })).toBeInTheDocument();

    // The reminder modal at 1 s, the swap reward queued behind it at 4 s: one dialog at a time, none of them ours.
    for (let step = 0; step < 10; step++) {
      await flush(500);
      expect(dialogs().length).toBeLessThanOrEqual(1);
    }
    expect(screen.getByRole("dialog", { name: "Never miss a claim" })).toBeInTheDocument();
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Not now" }));
    await flush(10);
    expect(screen.getByRole("dialog", { name: "You earned a swap reward" })).toBeInTheDocument();
    await flush(10_000);
    expect(dialogs()).toHaveLength(1);
    expect(readStored("seenAnnouncements")).toEqual([]);
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Close" }));

    // Only now, after a quiet moment, the first announcement.
    await flush(ANNOUNCEMENT_DELAY_MS + 10);
    expect(dialogs()).toHaveLength(1);
    expect(screen.getByRole("dialog", { name: "The halving is here" })).toBeInTheDocument();
    expect(app.fakes.calls.map((call) => call.name)).toContain("sendTransaction");
  });
});
