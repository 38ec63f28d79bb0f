import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ApiSchemas } from "@oro/clients";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readStored } from "../src/lib/storage";
import { USER } from "./fakes";
import { flush, renderApp } from "./render-app";
import { bustedReads, earnings, earningsCalls, invite, ORO } from "./share-earnings";

// The share screen: signed out, the own code and sharing, the totals and a long history of invites. Claiming rewards:
// share-rewards.test.tsx.
const invitesShown = () => screen.getAllByTestId("invite").map((item) => item.textContent ?? "");

afterEach(() => {
  vi.useRealTimers();
});

describe("share screen: signed out", () => {
  it("shows the title, the earn text with the API's amount and a sign-in button; asks nothing about the user", async () => {
    const app = renderApp({ path: "/share", options: { referrerRewardWei: 2_500_000_000_000_000_000n } });
    // The screen is its own chunk (the first time in a run it is transformed first: a longer wait).
    expect(await screen.findByRole("heading", { name: "Invite friends" }, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByText("Earn 2.5 ORO for every friend who joins with your code and claims.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign in to share" })).toBeInTheDocument();
    expect(earningsCalls(app)).toHaveLength(0);
    expect(app.fakes.calls.some((call) => call.name === "getReferralCode")).toBe(false);
  });
});

describe("share screen: own code and sharing", () => {
  it("the earnings query runs on /share only", async () => {
    const app = renderApp({ signedIn: true, verified: true });
    await screen.findByRole("slider");
    expect(earningsCalls(app)).toHaveLength(0);
    await userEvent.click(screen.getByRole("link", { name: "Share" }));
    await screen.findByRole("heading", { name: "Invites" });
    expect(earningsCalls(app)[0]?.args).toEqual([USER, { forceBustCache: false }]);
  });

  it("tapping the code copies it and shows the copied icon for 2 s; a refused clipboard is ignored", async () => {
    const writeText = vi.fn().mockRejectedValue(new Error("denied"));
    Object.defineProperty(navigator, "clipboard", { value: { writeText, readText: vi.fn() }, configurable: true });
    renderApp({ path: "/share", signedIn: true });
    await screen.findByRole("button", { name: "Copy your invite code MYC0DE22" });
    vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    fireEvent.click(screen.getByRole("button", { name: "Copy your invite code MYC0DE22" }));
    await flush(0);
    expect(writeText).toHaveBeenCalledWith("MYC0DE22");
    expect(screen.getByTestId("copied-icon")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copied" })).toBeInTheDocument();
    await flush(1990);
    expect(screen.getByTestId("copied-icon")).toBeInTheDocument();
    await flush(10);
    expect(screen.queryByTestId("copied-icon")).not.toBeInTheDocument();
    expect(screen.getByTestId("copy-icon")).toBeInTheDocument();
  });

  it("while the code loads: a loading indicator and a disabled share button", async () => {
    const app = renderApp({ path: "/share", signedIn: true });
    app.fakes.services.api.getReferralCode = () => new Promise(() => undefined);
    expect(await screen.findByRole("button", { name: "Share invite" })).toBeDisabled();
    expect(document.querySelector(".share-code--loading")).toHaveAttribute("aria-busy", "true");
  });

  it("a code that fails to load: 'Unable to load, try again later' in red, and no share button", async () => {
    renderApp({ path: "/share", signedIn: true, options: { referralCode: new Error("500") } });
    const error = await screen.findByText("Unable to load, try again later", {}, { timeout: 8000 });
    expect(error).toHaveClass("share-code__error");
    expect(screen.queryByRole("button", { name: "Share invite" })).not.toBeInTheDocument();
  }, 15_000);

  it("shares a deep link carrying referralCode and referredBy (the username) with a text through the wallet", async () => {
    const app = renderApp({ path: "/share", signedIn: true });
    const button = await screen.findByRole("button", { name: "Share invite" });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    const shared = app.fakes.calls.find((call) => call.name === "share")?.args[0] as { text: string; url: string };
    expect(shared.text).toBe("Claim free ORO every day with me! Use my invite code MYC0DE22 to get a bonus.");
    const url = new URL(shared.url);
    const path = new URL(url.searchParams.get("path") ?? shared.url, "https://x.example");
    expect(path.searchParams.get("referralCode")).toBe("MYC0DE22");
    expect(path.searchParams.get("referredBy")).toBe("alice");
  });

  it("shows the terms link until it is seen", async () => {
    renderApp({ path: "/share", signedIn: true });
    await userEvent.click(await screen.findByRole("link", { name: "Terms of use" }));
    expect(readStored("hasSeenShareTerms")).toBe(true);
    await userEvent.click(screen.getByRole("link", { name: "Share" }));
    await screen.findByRole("heading", { name: "Invite friends" });
    expect(screen.queryByRole("link", { name: "Terms of use" })).not.toBeInTheDocument();
  });
});

describe("share screen: totals and invites", () => {
  it("shows total ORO earned (up to 2 fraction digits), users referred and the invites in the spec's order", async () => {
    renderApp({
      path: "/share",
      signedIn: true,
      options: {
        earnings: earnings({
          totalOroEarnedWei: "3456789000000000000",
          usersReferred: [
            invite("auto-old", "auto", true, 90_000, 1),
            invite("claimed-new", "claimable", true, 40, 2),
            invite("open-old", "claimable", false, 7300, 3),
            invite(null, "claimable", false, 10, 4),
          ],
        }),
      },
    });
    expect(await screen.findByTestId("total-earned")).toHaveTextContent("3.45 ORO");
    expect(screen.getByTestId("users-referred")).toHaveTextContent("4");
    const list = within(screen.getByRole("region", { name: "Invites" }));
    expect(invitesShown()).toEqual([
      expect.stringMatching(/^A friendjust nowClaim$/),
      expect.stringMatching(/^open-old2 hr\. agoClaim$/),
      expect.stringMatching(/^claimed-new< 1m1 ORO$/),
      expect.stringMatching(/^auto-old1 day ago1 ORO$/),
    ]);
    for (const paid of list.getAllByRole("button", { name: "Paid: 1 ORO" })) expect(paid).toBeDisabled();
    expect(list.getAllByRole("button", { name: "Claim 1 ORO" })).toHaveLength(2);
  });

  it("an unknown payment type shows the red error text instead of the list, and the screen stays", async () => {
    const broken = earnings({ usersReferred: [{ ...invite("x", "auto", false, 5, 1), paymentType: "cheque" as "auto" }] });
    const app = renderApp({ path: "/share", signedIn: true, options: { earnings: broken } });
    expect(await screen.findByRole("alert")).toHaveTextContent("Unable to load, try again later");
    expect(screen.getByRole("heading", { name: "Invite friends" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Share invite" })).toBeInTheDocument();
    expect(earningsCalls(app)).toHaveLength(1);
  });
});

describe("share screen: a long history of invites, a page at a time", () => {
  const TOTAL = 50_000;
  const PAGE = 50;
  /**
   * When the history's newest invite was updated: fixed for each test, as the API's stored history is. (Counted from
   * each page's own moment, a page served a second after the one before described invites a second newer than they
   * were, and the list's order, newest first, put page 2's first invite above page 1's last.)
   */
  let historyAt = Date.now();
  beforeEach(() => {
    historyAt = Date.now();
  });
  /** The API's pages over TOTAL claimable, unclaimed invites, newest first; the cursor is the next index. */
  function pagedEarnings(cursor: string | undefined): ApiSchemas["OroEarned"] {
    const start = cursor === undefined ? 0 : Number(cursor);
    const end = Math.min(start + PAGE, TOTAL);
    const usersReferred = Array.from({ length: end - start }, (_, i) => invite(`friend${start + i}`, "claimable", false, 3600 + start + i, start + i + 1, historyAt));
    return earnings({ totalOroEarnedWei: (BigInt(TOTAL) * ORO).toString(), usersReferredCount: TOTAL, usersReferred, nextCursor: end < TOTAL ? String(end) : null });
  }
  const cursorsAsked = (app: ReturnType<typeof renderApp>) => earningsCalls(app).map((call) => (call.args[1] as { cursor?: string }).cursor);

  /** A stand-in for the browser's IntersectionObserver: the test says when the list's end comes into view. */
  function stubIntersectionObserver() {
    const observers = new Set<{ callback: IntersectionObserverCallback; target: Element | null }>();
    class FakeObserver {
      private readonly entry: { callback: IntersectionObserverCallback; target: Element | null };
      constructor(callback: IntersectionObserverCallback) {
        this.entry = { callback, target: null };
      }
      observe(target: Element) {
        this.entry.target = target;
        observers.add(this.entry);
      }
      disconnect() {
        observers.delete(this.entry);
      }
    }
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    return {
      scrollToEnd() {
        for (const { callback, target } of [...observers]) {
          if (target) callback([{ isIntersecting: true, target } as unknown as IntersectionObserverEntry], {} as IntersectionObserver);
        }
      },
    };
  }
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("shows the totals of the whole history and renders only the first page of 50,000 invites", async () => {
    const app = renderApp({ path: "/share", signedIn: true, options: { earnings: pagedEarnings } });
    expect(await screen.findByTestId("users-referred")).toHaveTextContent("50,000");
    expect(screen.getByTestId("total-earned")).toHaveTextContent("50,000 ORO");
    expect(screen.getAllByTestId("invite")).toHaveLength(PAGE);
    expect(cursorsAsked(app)).toEqual([undefined]);
  });

  it("asks for the next page with the last page's cursor as the list's end comes into view, in order, each invite once", async () => {
    const observer = stubIntersectionObserver();
    const app = renderApp({ path: "/share", signedIn: true, options: { earnings: pagedEarnings } });
    await waitFor(() => expect(screen.getAllByTestId("invite")).toHaveLength(PAGE));
    observer.scrollToEnd();
    await waitFor(() => expect(screen.getAllByTestId("invite")).toHaveLength(2 * PAGE));
    observer.scrollToEnd();
    await waitFor(() => expect(screen.getAllByTestId("invite")).toHaveLength(3 * PAGE));
    expect(cursorsAsked(app)).toEqual([undefined, "50", "100"]);
    const names = [...document.querySelectorAll(".invite__name")].map((name) => name.textContent);
    expect(names).toEqual(Array.from({ length: 3 * PAGE }, (_, i) => `friend${i}`));
  });

  it("a 'Show more invites' button loads the next page from the keyboard, and goes once the last page is in", async () => {
    const app = renderApp({
      path: "/share",
      signedIn: true,
      options: {
        earnings: (cursor) =>
          cursor === undefined
            ? earnings({ usersReferredCount: 3, usersReferred: [invite("first", "claimable", false, 60, 1), invite("second", "auto", true, 120, 2)], nextCursor: "c2" })
            : earnings({ usersReferredCount: 3, usersReferred: [invite("third", "auto", true, 180, 3)], nextCursor: null }),
      },
    });
    const more = await screen.findByRole("button", { name: "Show more invites" });
    expect(screen.getAllByTestId("invite")).toHaveLength(2);
    more.focus();
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(screen.getAllByTestId("invite")).toHaveLength(3));
    expect(cursorsAsked(app)).toEqual([undefined, "c2"]);
    expect(screen.queryByRole("button", { name: "Show more invites" })).not.toBeInTheDocument();
  });

  it("after a claim only the first page is read again (past the cache); later pages and the claimed invite stay in view", async () => {
    let claimed = false;
    const app = renderApp({
      path: "/share",
      signedIn: true,
      options: {
        earnings: (cursor) => {
          if (cursor !== undefined) return earnings({ usersReferredCount: 3, usersReferred: [invite("later", "auto", true, 900, 3)], nextCursor: null });
          // Once claimed, the server puts dana further down (claimable and claimed): out of the first page, where a
          // new invite, fred, has come meanwhile.
          const first = claimed
            ? [invite("fred", "claimable", false, 5, 9), invite("eve", "claimable", false, 300, 8)]
            : [invite("dana", "claimable", false, 120, 7), invite("eve", "claimable", false, 300, 8)];
          return earnings({ usersReferredCount: claimed ? 4 : 3, usersReferred: first, nextCursor: "p2" });
        },
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Show more invites" }));
    await waitFor(() => expect(screen.getAllByTestId("invite")).toHaveLength(3));
    vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    claimed = true;
    const [dana] = screen.getAllByRole("button", { name: "Claim 1 ORO" });
    if (!dana) throw new Error("dana's Claim button");
    fireEvent.click(dana);
    await flush(0);
    await flush(0);
    await flush(500);
    // The query's notifications go out on a timer of their own.
    await flush(10);
    await flush(10);
    expect(screen.getByTestId("users-referred")).toHaveTextContent("4");
    expect(bustedReads(app)).toHaveLength(1);
    expect(cursorsAsked(app)).toEqual([undefined, "p2", undefined]);
    expect([...document.querySelectorAll(".invite__name")].map((name) => name.textContent).sort()).toEqual(["dana", "eve", "fred", "later"]);
  });

  it("a next page that fails says so under the list, keeps what was loaded, and the button tries again", async () => {
    let failures = 0;
    renderApp({
      path: "/share",
      signedIn: true,
      options: {
        earnings: (cursor) => {
          if (cursor === undefined) return earnings({ usersReferredCount: 2, usersReferred: [invite("first", "claimable", false, 60, 1)], nextCursor: "c2" });
          if (failures++ < 3) return new Error("503");
          return earnings({ usersReferredCount: 2, usersReferred: [invite("second", "auto", true, 120, 2)], nextCursor: null });
        },
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Show more invites" }));
    expect(await screen.findByRole("alert", {}, { timeout: 10_000 })).toHaveTextContent("Unable to load, try again later");
    expect(screen.getAllByTestId("invite")).toHaveLength(1);
    expect(screen.getByTestId("users-referred")).toHaveTextContent("2");
    await userEvent.click(screen.getByRole("button", { name: "Show more invites" }));
    await waitFor(() => expect(screen.getAllByTestId("invite")).toHaveLength(2));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  }, 20_000);
});
