import { buildReferralMessage } from "@oro/clients";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureDeepLinkReferral } from "../src/features/referral/deep-link";
import { ELIGIBILITY_RECHECK_MS } from "../src/features/referral/use-referral";
import { ApiRequestError } from "../src/lib/api";
import { readStored } from "../src/lib/storage";
import { WorldAppError } from "../src/lib/world-app/errors";
import { USER, type FakeOptions } from "./fakes";
import { flush, renderApp } from "./render-app";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The card's module loads on demand (the first time in a run it is transformed first: a longer wait). */
const LAZY = { timeout: 10_000 };
const card = () => screen.findByRole("heading", { name: "Were you referred by someone?" }, LAZY);
const openModal = async () => {
  await userEvent.click(await screen.findByRole("button", { name: "Enter code" }, LAZY));
  return screen.getByRole("dialog", { name: "Enter an invite code" });
};
const codeInput = () => screen.getByRole("textbox", { name: "Invite code" });
const calls = (app: ReturnType<typeof renderApp>, name: string) => app.fakes.calls.filter((call) => call.name === name);

describe("the 'were you referred' card", () => {
  it("shows for a verified user the API calls eligible with no referral applied", async () => {
    const app = renderApp({ options: { lastMintedSecondsAgo: null }, signedIn: true, verified: true });
    expect(await card()).toBeInTheDocument();
    expect(calls(app, "getReferralEligibility")[0]?.args).toEqual([USER]);
  });

  it.each([
    ["not eligible (already claimed)", { eligible: false, reason: "ALREADY_CLAIMED", referralApplied: false, referrerUsername: null }],
    ["already referred (another wallet of the same human)", { eligible: false, reason: "ALREADY_REFERRED", referralApplied: false, referrerUsername: null }],
    ["eligible with a referral applied", { eligible: true, reason: "NEVER_CLAIMED", referralApplied: true, referrerUsername: null }],
  ] as const)("is hidden when the API says %s", async (_, eligibility) => {
    const app = renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null, eligibility } });
    await waitFor(() => expect(calls(app, "getReferralEligibility")).toHaveLength(1));
    await screen.findByRole("slider");
    expect(screen.queryByRole("heading", { name: "Were you referred by someone?" })).not.toBeInTheDocument();
  });

  it("is not asked for while signed out", async () => {
    const app = renderApp();
    await screen.findByRole("button", { name: "Sign in to claim" });
    expect(calls(app, "getReferralEligibility")).toHaveLength(0);
    expect(screen.queryByRole("heading", { name: "Were you referred by someone?" })).not.toBeInTheDocument();
  });

  it("an eligibility failure shows no card (nothing is guessed)", async () => {
    renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null, eligibility: new Error("503") } });
    await screen.findByRole("slider");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("heading", { name: "Were you referred by someone?" })).not.toBeInTheDocument();
  });

  it("an eligibility failure is asked again later: the card shows once the API answers", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const options: FakeOptions = { lastMintedSecondsAgo: null, eligibility: new Error("503") };
      const app = renderApp({ signedIn: true, verified: true, options });
      await waitFor(() => expect(calls(app, "getReferralEligibility").length).toBeGreaterThan(0), LAZY);
      // The first ask and its two retries (1 s, 2 s apart) all fail: no card.
      await flush(4_000);
      expect(calls(app, "getReferralEligibility")).toHaveLength(3);
      expect(screen.queryByRole("heading", { name: "Were you referred by someone?" })).not.toBeInTheDocument();
      // The indexer is back.
      delete options.eligibility;
      await flush(ELIGIBILITY_RECHECK_MS);
      expect(await card()).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the code modal", () => {
  it("shows the code upper case, enables submit at exactly 8 characters, and 'continue without code' closes it", async () => {
    renderApp({ options: { lastMintedSecondsAgo: null }, signedIn: true, verified: true });
    const dialog = await openModal();
    const submit = within(dialog).getByRole("button", { name: "Submit" });
    expect(submit).toBeDisabled();
    await userEvent.type(codeInput(), "abcd234");
    expect(codeInput()).toHaveValue("ABCD234");
    expect(submit).toBeDisabled();
    await userEvent.type(codeInput(), "5");
    expect(codeInput()).toHaveValue("ABCD2345");
    expect(submit).toBeEnabled();
    await userEvent.type(codeInput(), "9");
    expect(codeInput()).toHaveValue("ABCD2345");
    await userEvent.click(within(dialog).getByRole("button", { name: "Continue without code" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("pastes the clipboard's code, and ignores a clipboard that refuses", async () => {
    renderApp({ options: { lastMintedSecondsAgo: null }, signedIn: true, verified: true });
    const dialog = await openModal();
    const readText = vi.fn().mockRejectedValueOnce(new Error("denied")).mockResolvedValueOnce(" k7qx3mzp \n");
    Object.defineProperty(navigator, "clipboard", { value: { readText, writeText: vi.fn() }, configurable: true });
    await userEvent.click(within(dialog).getByRole("button", { name: "Paste" }));
    expect(codeInput()).toHaveValue("");
    expect(screen.getByRole("dialog")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Paste" }));
    expect(codeInput()).toHaveValue("K7QX3MZP");
  });

  it("accepts: the invite message is signed first, the code is sent upper-cased with the signature, the modal closes and the bonus banner names the sender", async () => {
    const app = renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null } });
    await openModal();
    await userEvent.type(codeInput(), "abcd2345");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("bob invited you! Claim your first ORO to get your referral bonus.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Were you referred by someone?" })).not.toBeInTheDocument();
    const names = app.fakes.calls.map((call) => call.name);
    expect(names.indexOf("getReferralNonce")).toBeLessThan(names.indexOf("signMessage"));
    expect(names.indexOf("signMessage")).toBeLessThan(names.indexOf("acceptReferral"));
    expect(calls(app, "signMessage")[0]?.args[0]).toBe(buildReferralMessage({ referralCode: "ABCD2345", address: USER, nonce: "InviteNonce1234" }));
    expect(calls(app, "acceptReferral")[0]?.args).toEqual([USER, { referralCode: "ABCD2345", signature: "0x5167", nonce: "InviteNonce1234" }]);
  });

  it("shows 'submitting' while the answer is awaited", async () => {
    const app = renderApp({ options: { lastMintedSecondsAgo: null }, signedIn: true, verified: true });
    let refuse: (error: ApiRequestError) => void = () => undefined;
    app.fakes.services.api.acceptReferral = () => new Promise((_, reject) => (refuse = reject));
    await openModal();
    await userEvent.type(codeInput(), "ABCD2345");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    const submitting = await screen.findByRole("button", { name: "Submitting…" });
    expect(submitting).toBeDisabled();
    refuse(new ApiRequestError(404, "REFERRAL_CODE_NOT_FOUND", "No such referral code"));
    expect(await screen.findByRole("alert")).toHaveTextContent("The code you entered does not exist.");
    expect(screen.getByRole("button", { name: "Submit" })).toBeEnabled();
  });

  it("refuses the user's own code, in any case, before any request", async () => {
    const app = renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null, referralCode: "MYC0DE22" } });
    await openModal();
    await userEvent.type(codeInput(), "myc0de22");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("You cannot refer yourself.");
    expect(calls(app, "getReferralNonce")).toHaveLength(0);
    expect(calls(app, "signMessage")).toHaveLength(0);
    expect(calls(app, "acceptReferral")).toHaveLength(0);
  });

  it("a refused signature is sent as an empty string and the API's refusal is shown", async () => {
    const app = renderApp({
      signedIn: true,
      verified: true,
      options: { lastMintedSecondsAgo: null, signMessageError: new WorldAppError("signMessage", "user_rejected"), acceptError: "SIGNATURE_REQUIRED" },
    });
    await openModal();
    await userEvent.type(codeInput(), "ABCD2345");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("An unknown error occurred.");
    expect(calls(app, "acceptReferral")[0]?.args[1]).toMatchObject({ signature: "" });
  });

  it("editing the code clears the error", async () => {
    renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null, acceptError: "REFERRAL_CODE_NOT_FOUND" } });
    await openModal();
    await userEvent.type(codeInput(), "ABCD2345");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The code you entered does not exist.");
    await userEvent.type(codeInput(), "{Backspace}");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it.each([
    ["REFERRAL_ALREADY_EXISTS", "You have already accepted an invite."],
    ["NOT_ELIGIBLE", "You've already claimed. Invite friends to start earning more ORO."],
  ])("%s shows its text in the modal and its banner", async (code, text) => {
    renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null, acceptError: code } });
    await openModal();
    await userEvent.type(codeInput(), "ABCD2345");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(text);
    expect(screen.getAllByText(text)).toHaveLength(2);
    expect(screen.getByRole("status")).toHaveTextContent(text);
  });
});

describe("banners", () => {
  it("the referral bonus with the sender's name when the API knows it, without it otherwise", async () => {
    renderApp({
      signedIn: true,
      verified: true,
      options: { lastMintedSecondsAgo: null, eligibility: { eligible: false, reason: "ALREADY_REFERRED", referralApplied: true, referrerUsername: "carol" } },
    });
    expect(await screen.findByRole("status")).toHaveTextContent("carol invited you! Claim your first ORO to get your referral bonus.");
  });

  it("no bonus banner once the human has minted (the bonus came with the first claim)", async () => {
    const app = renderApp({
      signedIn: true,
      verified: true,
      options: { lastMintedSecondsAgo: 3600, eligibility: { eligible: false, reason: "ALREADY_REFERRED", referralApplied: true, referrerUsername: "carol" } },
    });
    await screen.findByRole("timer");
    await waitFor(() => expect(calls(app, "readMintData").length).toBeGreaterThan(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/carol invited you/)).not.toBeInTheDocument();
  });

  it("the referral bonus without a name", async () => {
    renderApp({ signedIn: true, verified: false, options: { lastMintedSecondsAgo: null, eligibility: { eligible: true, reason: "NEVER_CLAIMED", referralApplied: true, referrerUsername: null } } });
    expect(await screen.findByRole("status")).toHaveTextContent("Invite accepted! Claim your first ORO to get your referral bonus.");
  });
});

describe("deep link", () => {
  it("keeps referralCode and referredBy through sign-in and verification, then 'approve code' accepts it", async () => {
    captureDeepLinkReferral("?referralCode=abcd2345&referredBy=ana");
    const app = renderApp({ options: { lastMintedSecondsAgo: null } });
    await userEvent.click(await screen.findByRole("button", { name: "Sign in to claim" }));
    expect(await screen.findByRole("heading", { name: "ana invited you" })).toBeInTheDocument();
    expect(screen.getByText("Invite code ABCD2345")).toBeInTheDocument();
    expect(screen.getByText("Verify with World ID to accept this invite.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Approve code" })).not.toBeInTheDocument();
    expect(readStored("referralCode")).toEqual({ referralCode: "ABCD2345", referredBy: "ana" });

    await userEvent.click(screen.getByRole("button", { name: "Verify with World ID" }));
    await userEvent.click(await screen.findByRole("button", { name: "Approve code" }));
    expect(await screen.findByText("bob invited you! Claim your first ORO to get your referral bonus.")).toBeInTheDocument();
    expect(calls(app, "acceptReferral")[0]?.args[1]).toMatchObject({ referralCode: "ABCD2345" });
    expect(readStored("referralCode")).toBeNull();
    expect(screen.queryByRole("button", { name: "Approve code" })).not.toBeInTheDocument();
  });

  it("is kept across a reload (client storage)", async () => {
    captureDeepLinkReferral("?referralCode=ABCD2345");
    window.localStorage.setItem("oro.referralCode", JSON.stringify(readStored("referralCode")));
    const { resetStorageCache } = await import("../src/lib/storage");
    resetStorageCache();
    renderApp({ options: { lastMintedSecondsAgo: null }, signedIn: true, verified: true });
    expect(await screen.findByRole("heading", { name: "You have an invite" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Approve code" })).toBeInTheDocument();
  });

  it("after REFERRAL_ALREADY_EXISTS the approve button is hidden and the banner shows", async () => {
    captureDeepLinkReferral("?referralCode=ABCD2345&referredBy=ana");
    renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null, acceptError: "REFERRAL_ALREADY_EXISTS" } });
    await userEvent.click(await screen.findByRole("button", { name: "Approve code" }));
    expect(await screen.findByRole("status")).toHaveTextContent("You have already accepted an invite.");
    expect(screen.queryByRole("button", { name: "Approve code" })).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Were you referred by someone?" })).not.toBeInTheDocument();
    expect(readStored("referralCode")).toBeNull();
  });

  it("a deep link for a user who has already claimed is dropped with the 'already claimed' banner", async () => {
    captureDeepLinkReferral("?referralCode=ABCD2345");
    renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null, eligibility: { eligible: false, reason: "ALREADY_CLAIMED", referralApplied: false, referrerUsername: null } } });
    expect(await screen.findByRole("status")).toHaveTextContent("You've already claimed. Invite friends to start earning more ORO.");
    expect(screen.queryByRole("button", { name: "Approve code" })).not.toBeInTheDocument();
    expect(readStored("referralCode")).toBeNull();
  });
});
