import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { streakStateOf } from "../src/features/streak/use-streak";
import { captureDeepLinkReferral } from "../src/features/referral/deep-link";
import { changeLanguage, initialLanguage } from "../src/i18n";
import { ApiRequestError } from "../src/lib/api";
import { readStored, resetStorageCache, writeStored } from "../src/lib/storage";
import { USER } from "./fakes";
import { flush, renderApp } from "./render-app";

afterEach(async () => {
  vi.useRealTimers();
  await changeLanguage("en", { remember: false });
});

describe("header", () => {
  it.each([
    [1, "1 day"],
    [7, "7 days"],
    [0, "0 days"],
  ])("shows a streak of %i as '%s'", async (currentStreak, label) => {
    renderApp({ signedIn: true, verified: true, options: { streak: { currentStreak } } });
    await waitFor(() => expect(screen.getByTestId("streak")).toHaveTextContent(label));
  });

  it("shows the balance abbreviated", async () => {
    renderApp({ signedIn: true, options: { balanceWei: 1_234_500_000_000_000_000_000n } });
    await waitFor(() => expect(screen.getByTestId("balance")).toHaveTextContent("1.23K"));
  });

  it("shows '--' when the balance cannot be read (after its retries)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({ signedIn: true, options: { balanceWei: new Error("rpc down") } });
    await flush(1000 + 2000 + 4000 + 100);
    await waitFor(() => expect(screen.getByTestId("balance")).toHaveTextContent("--"));
  });

  it("the bell asks for permission the first time, then opens the settings", async () => {
    const app = renderApp({ signedIn: true });
    const bell = await screen.findByRole("button", { name: "Claim reminders" });
    await userEvent.click(bell);
    await waitFor(() => expect(app.fakes.calls.map((call) => call.name)).toContain("scheduleClaimReminder"));
    expect(readStored("notificationPermissionRequested")).toBe(true);
    expect(app.fakes.opened).toEqual([]);
    await userEvent.click(bell);
    expect(app.fakes.opened).toEqual(["worldapp://settings/notifications"]);
    expect(app.fakes.calls.filter((call) => call.name === "requestNotificationPermission")).toHaveLength(1);
  });

  it("a reminder the API cannot schedule yet (503, no network) is asked for again 1 s, 2 s and 4 s later; a refusal is final", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const app = renderApp({ signedIn: true });
    const answers = [new ApiRequestError(503, "REMINDER_UNAVAILABLE", "cannot tell"), new TypeError("Failed to fetch")];
    let calls = 0;
    app.fakes.services.api.scheduleClaimReminder = () => {
      calls += 1;
      const answer = answers.shift();
      return answer ? Promise.reject(answer) : Promise.resolve();
    };
    fireEvent.click(await screen.findByRole("button", { name: "Claim reminders" }));
    await waitFor(() => expect(calls).toBe(1));
    await flush(1000);
    expect(calls).toBe(2);
    await flush(2000);
    expect(calls).toBe(3);
    await flush(10_000);
    expect(calls).toBe(3);
  });

  it("a reminder the API refuses (4xx) is not asked for again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const app = renderApp({ signedIn: true });
    let calls = 0;
    app.fakes.services.api.scheduleClaimReminder = () => {
      calls += 1;
      return Promise.reject(new ApiRequestError(403, "FORBIDDEN", "another address"));
    };
    fireEvent.click(await screen.findByRole("button", { name: "Claim reminders" }));
    await waitFor(() => expect(calls).toBe(1));
    await flush(20_000);
    expect(calls).toBe(1);
  });

  it("a denied permission schedules nothing", async () => {
    const app = renderApp({ signedIn: true, options: { permissionOutcome: "denied" } });
    await userEvent.click(await screen.findByRole("button", { name: "Claim reminders" }));
    await waitFor(() => expect(app.fakes.events).toContain("notification_permission"));
    expect(app.fakes.calls.map((call) => call.name)).not.toContain("scheduleClaimReminder");
  });
});

describe("streak failures", () => {
  it("store the error message and clear the data", () => {
    expect(streakStateOf({ currentStreak: 3 }, new Error("indexer down"))).toEqual({ streak: null, error: "indexer down" });
  });
  it("store 'Unknown error' when the failure has no message", () => {
    expect(streakStateOf({ currentStreak: 3 }, new Error(""))).toEqual({ streak: null, error: "Unknown error" });
    expect(streakStateOf(undefined, "boom")).toEqual({ streak: null, error: "Unknown error" });
  });
  it("keep the data when there is no failure", () => {
    expect(streakStateOf({ currentStreak: 3 }, null)).toEqual({ streak: { currentStreak: 3 }, error: null });
  });
  it("show no streak in the header", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({ signedIn: true, options: { streak: new Error("indexer down") } });
    await flush(1000 + 2000 + 100);
    await waitFor(() => expect(screen.getByTestId("streak")).toHaveTextContent("--"));
  });
});

describe("locale", () => {
  it("sends the user's language to the API once, then marks it as set", async () => {
    const first = renderApp({ signedIn: true });
    await waitFor(() => expect(readStored("localeSetFor")).toBe(USER.toLowerCase()));
    expect(first.fakes.calls.filter((call) => call.name === "setNotificationLocale").map((call) => call.args)).toEqual([[USER, "en"]]);
    first.unmount();
    const second = renderApp({ signedIn: true });
    await screen.findByTestId("balance");
    await flush(0);
    expect(second.fakes.calls.map((call) => call.name)).not.toContain("setNotificationLocale");
  });

  it("sends nothing while signed out", async () => {
    const app = renderApp();
    await screen.findByRole("button", { name: "Sign in to claim" });
    expect(app.fakes.calls.map((call) => call.name)).not.toContain("setNotificationLocale");
  });
});

describe("routes and tabs", () => {
  it.each(["/nowhere", "/claim/extra", "/SHARE2"])("%s redirects to / replacing the history entry", async (path) => {
    const app = renderApp({ path });
    expect(await screen.findByRole("button", { name: "Sign in to claim" })).toBeInTheDocument();
    expect(app.location().pathname).toBe("/");
  });

  it.each([
    ["/stats", "Stats"],
    ["/apps", "Apps"],
    ["/polls", "Polls"],
    ["/share", "Invite friends"],
    ["/about", "About ORO"],
  ])("%s is a screen of its own inside the layout", async (path, title) => {
    renderApp({ path });
    expect(await screen.findByRole("heading", { name: title })).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeInTheDocument();
  });

  it("/terms and /debug load on demand", async () => {
    const terms = renderApp({ path: "/terms" });
    expect(await screen.findByRole("heading", { name: "Terms of use" })).toBeInTheDocument();
    terms.unmount();
    renderApp({ path: "/debug", signedIn: true });
    expect(await screen.findByRole("heading", { name: "Debug" })).toBeInTheDocument();
    expect(screen.getByText(USER)).toBeInTheDocument();
  });

  it("the tab bar shows Claim, Share and About and navigates", async () => {
    const app = renderApp();
    const nav = await screen.findByRole("navigation", { name: "Main" });
    const tabs = [...nav.querySelectorAll("a")].map((link) => link.textContent);
    expect(tabs).toEqual(["Claim", "Share", "About"]);
    await userEvent.click(screen.getByRole("link", { name: "Share" }));
    expect(app.location().pathname).toBe("/share");
    await userEvent.click(screen.getByRole("link", { name: "Claim" }));
    expect(app.location().pathname).toBe("/");
  });

  it("the legal notice opens the terms", async () => {
    renderApp();
    await userEvent.click(await screen.findByRole("link", { name: "Terms of use" }));
    expect(await screen.findByRole("heading", { name: "Terms of use" })).toBeInTheDocument();
  });
});

describe("deep links", () => {
  it("keep referralCode and referredBy for the referral flow", () => {
    captureDeepLinkReferral("?referralCode=ab12cd34&referredBy=maria");
    expect(readStored("referralCode")).toEqual({ referralCode: "AB12CD34", referredBy: "maria" });
  });
  it("ignore a malformed code", () => {
    captureDeepLinkReferral("?referralCode=<script>");
    expect(readStored("referralCode")).toBeNull();
  });
});

describe("first language", () => {
  afterEach(() => {
    Reflect.deleteProperty(window, "WorldApp");
  });
  it("is the stored choice first", () => {
    writeStored("language", "ko");
    expect(initialLanguage()).toBe("ko");
  });
  it("then the wallet's, skipping a stored value or wallet hint that looks like script injection", () => {
    writeStored("language", "<script>alert(1)</script>");
    Object.assign(window, { WorldApp: { preferred_language: "javascript:alert(1)", language: "th-TH" } });
    expect(initialLanguage()).toBe("th");
  });
  it("then the browser's", () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["de-DE", "pt-BR"]);
    expect(initialLanguage()).toBe("pt");
  });
});

describe("sign-in failure", () => {
  it("says so and lets the user try again", async () => {
    const app = renderApp();
    app.fakes.services.api.signIn = () => Promise.reject(new Error("SIWE_INVALID"));
    await userEvent.click(await screen.findByRole("button", { name: "Sign in to claim" }));
    expect(await screen.findByText("Something went wrong. Please try again.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign in to claim" })).toBeEnabled();
    expect(readStored("session")).toBeNull();
  });
});

describe("language picker", () => {
  it("switches every string and remembers the choice", async () => {
    renderApp({ path: "/about" });
    fireEvent.change(await screen.findByRole("combobox", { name: "Language" }), { target: { value: "es" } });
    expect(await screen.findByRole("heading", { name: "Acerca de ORO" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Compartir" })).toBeInTheDocument();
    expect(readStored("language")).toBe("es");
  });
});

describe("storage", () => {
  it("reads a value that fails its schema as the default", () => {
    window.localStorage.setItem("oro.emailSubmitted", JSON.stringify("yes"));
    window.localStorage.setItem("oro.session", "{not json");
    window.localStorage.setItem("oro.referralCode", JSON.stringify({ referralCode: 5 }));
    resetStorageCache();
    expect(readStored("emailSubmitted")).toBe(false);
    expect(readStored("session")).toBeNull();
    expect(readStored("referralCode")).toBeNull();
  });
  it("round-trips typed values", () => {
    writeStored("hasSeenShareTerms", true);
    writeStored("isInUS", { address: USER, isInUS: false });
    resetStorageCache();
    expect(readStored("hasSeenShareTerms")).toBe(true);
    expect(readStored("isInUS")).toEqual({ address: USER, isInUS: false });
  });
});
