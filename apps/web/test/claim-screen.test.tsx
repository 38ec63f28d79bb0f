import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readStored } from "../src/lib/storage";
import { WorldAppError } from "../src/lib/world-app/errors";
import { DAY, USER } from "./fakes";
import { flush, renderApp } from "./render-app";

const slider = () => screen.getByRole("slider", { name: "Slide to claim your ORO" });

/** Drags the thumb all the way with a mouse and releases it. */
function slideToEnd() {
  fireEvent.pointerDown(slider(), { clientX: 10, pointerType: "mouse" });
  fireEvent.pointerMove(window, { clientX: 2000, pointerType: "mouse" });
  fireEvent.pointerUp(window, { clientX: 2000, pointerType: "mouse" });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("claim screen: signed out", () => {
  it("shows the tagline, the sign-in button and the terms link, and no header", async () => {
    renderApp();
    expect(await screen.findByText("Claim free ORO every day, just for being human.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign in to claim" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Terms of use" })).toHaveAttribute("href", "/terms");
    expect(screen.queryByTestId("balance")).not.toBeInTheDocument();
  });

  it("signs in with the API nonce, the wallet's SIWE signature and the API session", async () => {
    const app = renderApp();
    await userEvent.click(await screen.findByRole("button", { name: "Sign in to claim" }));
    expect(await screen.findByText("Verify that you are a unique human to claim.")).toBeInTheDocument();
    const names = app.fakes.calls.map((call) => call.name);
    expect(names.indexOf("getSignInNonce")).toBeLessThan(names.indexOf("walletAuth"));
    expect(names.indexOf("walletAuth")).toBeLessThan(names.indexOf("signIn"));
    expect(app.fakes.calls.find((call) => call.name === "walletAuth")?.args[0]).toEqual({
      nonce: "abcdef123456",
      statement: "Claim ORO daily on the chain.",
    });
    expect(readStored("session")?.address).toBe(USER);
    expect(await screen.findByTestId("balance")).toHaveTextContent("12.34");
  });
});

describe("claim screen: signed in, not verified", () => {
  it("shows the ORO heading, 'verify to claim', the verify button and the 'not verified' link", async () => {
    renderApp({ signedIn: true });
    expect(await screen.findByRole("heading", { name: "ORO" })).toBeInTheDocument();
    expect(screen.getByText("Verify that you are a unique human to claim.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Verify with World ID" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Not verified?" })).toBeInTheDocument();
  });

  it("the 'not verified' link opens the info modal with the verification service and the swap app", async () => {
    const app = renderApp({ signedIn: true });
    await userEvent.click(await screen.findByRole("button", { name: "Not verified?" }));
    const dialog = screen.getByRole("dialog", { name: "Only verified humans can claim" });
    await userEvent.click(within(dialog).getByRole("button", { name: "How to get verified" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Open the swap app" }));
    expect(app.fakes.opened).toEqual(["https://world.org/world-id", expect.stringContaining("world.org/mini-app")]);
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("verifying with World ID for this address leads to the slider when a claim is ready", async () => {
    const app = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null } });
    await userEvent.click(await screen.findByRole("button", { name: "Verify with World ID" }));
    expect(await screen.findByRole("slider")).toBeInTheDocument();
    expect(app.fakes.calls.find((call) => call.name === "verifyHuman")?.args[0]).toBe(USER);
    expect(readStored("verification")?.address).toBe(USER);
  });

  it("a failed verification opens the not-verified modal", async () => {
    renderApp({ signedIn: true, options: { verifyError: new WorldAppError("verify", "verification_rejected") } });
    await userEvent.click(await screen.findByRole("button", { name: "Verify with World ID" }));
    expect(await screen.findByRole("dialog", { name: "Only verified humans can claim" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Verify with World ID" })).toBeEnabled();
  });

  it("closing World App's prompt opens no modal: the verify button is there to try again", async () => {
    renderApp({ signedIn: true, options: { verifyError: new WorldAppError("verify", "user_rejected") } });
    const verify = await screen.findByRole("button", { name: "Verify with World ID" });
    await userEvent.click(verify);
    await waitFor(() => expect(screen.getByRole("button", { name: "Verify with World ID" })).toBeEnabled());
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});

describe("claim screen: verified", () => {
  it("ready: the slider, and a gold header", async () => {
    const { container } = renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: 2 * DAY } });
    expect(await screen.findByRole("slider", { name: "Slide to claim your ORO" })).toBeEnabled();
    expect(screen.getByText("Slide to claim")).toBeInTheDocument();
    await waitFor(() => expect(container.querySelector(".header")).toHaveClass("header--gold"));
  });

  it("not ready: the countdown, the price card with its swap button, and a blue header", async () => {
    const app = renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: 3 * 3600 } });
    expect(await screen.findByText("Next claim in")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("timer")).toHaveTextContent(/^2[01]:\d\d:\d\d$/));
    expect(await screen.findByText("$0.0234")).toBeInTheDocument();
    expect(screen.getByText("+3.4% in 24h")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Swap" }));
    expect(app.fakes.opened).toEqual([expect.stringContaining("world.org/mini-app")]);
    expect(app.container.querySelector(".header")).toHaveClass("header--blue");
    expect(screen.queryByRole("slider")).not.toBeInTheDocument();
  });

  it.each([
    [-DAY / 2, /^1 day 1[12]:\d\d:\d\d$/],
    [-(DAY + 3600), /^2 days 0[01]:\d\d:\d\d$/],
  ])("not ready: the countdown shows the days when a day or more is left (%i)", async (lastMintedSecondsAgo, shown) => {
    renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo } });
    await waitFor(() => expect(screen.getByRole("timer")).toHaveTextContent(shown));
  });

  it("becomes ready by itself when the countdown reaches the next mint time (checked every second)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: DAY - 2 } });
    await waitFor(() => expect(screen.getByRole("timer")).toHaveTextContent(/^00:00:0[12]$/));
    await flush(3000);
    expect(screen.getByRole("slider")).toBeInTheDocument();
  });

  it("slide to claim: claiming (spinning coin), then success with the amount and 'claim again in 24 hours'", async () => {
    const app = renderApp({ signedIn: true, verified: true, options: { mintConfirmsAfterReads: 2 } });
    await screen.findByRole("slider");
    slideToEnd();
    expect(await screen.findByRole("heading", { name: "Claiming…" })).toBeInTheDocument();
    expect(document.querySelector(".claim__coin--spin")).not.toBeNull();
    expect(await screen.findByRole("heading", { name: "+0.5 ORO" }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText("Claimed! Your streak keeps growing.")).toBeInTheDocument();
    expect(screen.getByText("Claim again in 24 hours")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "ORO price" })).toBeInTheDocument();
    const sent = app.fakes.calls.filter((call) => call.name === "sendTransaction");
    expect(sent).toHaveLength(1);
    // Felt as in native apps: the slide reaching its end, then the success.
    expect(app.fakes.calls.filter((call) => call.name === "haptic").map((call) => call.args[0])).toEqual(["slide-complete", "success"]);
  });

  it("a transaction error resets the slider and shows the network notice and the claims banner", async () => {
    const app = renderApp({ signedIn: true, verified: true, options: { sendTransactionError: new WorldAppError("sendTransaction", "generic_error") } });
    await screen.findByRole("slider");
    slideToEnd();
    expect(await screen.findByText("The network is having issues. Please try again later.")).toBeInTheDocument();
    expect(screen.getByText("We are working on fixing errors with claims")).toBeInTheDocument();
    await waitFor(() => expect(slider()).toHaveAttribute("aria-valuenow", "0"));
    expect(slider()).toHaveAttribute("aria-disabled", "false");
    expect(app.fakes.events).toContain("claim_failed");
    expect(app.fakes.calls.filter((call) => call.name === "haptic").map((call) => call.args[0])).toEqual(["slide-complete", "error"]);
  });

  it("declining in the wallet resets the slider without a network notice", async () => {
    renderApp({ signedIn: true, verified: true, options: { sendTransactionError: new WorldAppError("sendTransaction", "user_rejected") } });
    await screen.findByRole("slider");
    slideToEnd();
    await waitFor(() => expect(slider()).toHaveAttribute("aria-valuenow", "0"));
    expect(screen.queryByText("The network is having issues. Please try again later.")).not.toBeInTheDocument();
  });

  it("a claim the contract refuses says why instead of the network notice: too early, or claims paused", async () => {
    for (const [refusal, text] of [
      ["tooEarly", "Your next claim is not ready yet: the chain counts the wait from your last claim."],
      ["paused", "Claims are paused for now. Please try again later."],
    ] as const) {
      const app = renderApp({ signedIn: true, verified: true, options: { sendTransactionError: new WorldAppError("sendTransaction", "simulation_failed"), claimRefusal: refusal } });
      await screen.findByRole("slider");
      slideToEnd();
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.queryByText("The network is having issues. Please try again later.")).not.toBeInTheDocument();
      // Paused claims are trouble with claims: the banner says it is being worked on; too early is not.
      expect(screen.queryByText("We are working on fixing errors with claims") !== null).toBe(refusal === "paused");
      // The app asked the chain about the very call the wallet failed to send.
      const sent = app.fakes.calls.find((call) => call.name === "sendTransaction")?.args[0];
      expect(app.fakes.calls.find((call) => call.name === "explainRefusal")?.args).toEqual([sent, USER]);
      expect(readStored("verification")).not.toBeNull();
      app.unmount();
    }
  });

  it("a proof the contract will never take again (3.0 closed, moved, or refused) is dropped: the human verifies again", async () => {
    renderApp({ signedIn: true, verified: true, options: { sendTransactionError: new WorldAppError("sendTransaction", "simulation_failed"), claimRefusal: "verifyAgain" } });
    await screen.findByRole("slider");
    slideToEnd();
    expect(await screen.findByText("This World ID proof can no longer be used to claim. Verify with World ID again.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Verify with World ID" })).toBeEnabled();
    expect(readStored("verification")).toBeNull();
    // Verifying again answers it.
    await userEvent.click(screen.getByRole("button", { name: "Verify with World ID" }));
    await screen.findByRole("slider");
    expect(screen.queryByText("This World ID proof can no longer be used to claim. Verify with World ID again.")).not.toBeInTheDocument();
  });

  it("a 3.0 proof World ID refuses is dropped too (it would be refused on every slide)", async () => {
    renderApp({ signedIn: true, verified: true, options: { sendTransactionError: new WorldAppError("sendTransaction", "simulation_failed"), claimRefusal: "proofRefused" } });
    await screen.findByRole("slider");
    slideToEnd();
    expect(await screen.findByText("This World ID proof can no longer be used to claim. Verify with World ID again.")).toBeInTheDocument();
    expect(readStored("verification")).toBeNull();
  });

  it("unreadable chain data shows the network notice instead of a countdown", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({ signedIn: true, verified: true, options: { mintDataFails: true } });
    await flush(1000 + 2000 + 4000 + 500);
    expect(await screen.findByText("We are working on fixing errors with claims")).toBeInTheDocument();
    expect(screen.queryByRole("slider")).not.toBeInTheDocument();
    expect(screen.getByRole("timer")).toHaveTextContent("--:--:--");
  });
});

describe("claim screen: the next day", () => {
  it("a success screen left open goes back to the slider once the next claim opens", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({ signedIn: true, verified: true, options: { mintConfirmsAfterReads: 1 } });
    await screen.findByRole("slider");
    slideToEnd();
    expect(await screen.findByRole("heading", { name: "+0.5 ORO" })).toBeInTheDocument();
    await flush(60_000);
    expect(screen.getByRole("heading", { name: "+0.5 ORO" })).toBeInTheDocument();
    await flush(DAY * 1000);
    await waitFor(() => expect(screen.getByRole("slider")).toBeInTheDocument());
  });
});

describe("claim screen: World ID failures that say more", () => {
  it("a World ID that already joined from another wallet is told to open ORO from that wallet", async () => {
    renderApp({ signedIn: true, options: { verifyError: new WorldAppError("verify", "nullifier_replayed") } });
    await userEvent.click(await screen.findByRole("button", { name: "Verify with World ID" }));
    const dialog = await screen.findByRole("dialog", { name: "Only verified humans can claim" });
    expect(await within(dialog).findByText("This World ID has already joined ORO from another wallet. Open ORO from that wallet to claim.")).toBeInTheDocument();
  });

  it("an expired request and a relying party World App does not accept each say so", async () => {
    for (const [code, text] of [
      ["rp_signature_expired", "The request to World App expired. Try again."],
      ["inactive_rp", "World App did not accept ORO's request right now. Try again later."],
    ] as const) {
      const { unmount } = renderApp({ signedIn: true, options: { verifyError: new WorldAppError("verify", code) } });
      await userEvent.click(await screen.findByRole("button", { name: "Verify with World ID" }));
      const dialog = await screen.findByRole("dialog", { name: "Only verified humans can claim" });
      expect(await within(dialog).findByText(text)).toBeInTheDocument();
      unmount();
    }
  });

  it("a World App too old for World ID 4.0 is asked to update", async () => {
    renderApp({ signedIn: true, options: { verifyError: new WorldAppError("verify", "world_id_4_not_available") } });
    await userEvent.click(await screen.findByRole("button", { name: "Verify with World ID" }));
    const dialog = await screen.findByRole("dialog", { name: "Only verified humans can claim" });
    expect(await within(dialog).findByText("Your World App cannot make the proof ORO needs yet. Update World App, then try again.")).toBeInTheDocument();
  });
});
