import { enrolmentSessionSignalOf, moveSignalOf, oroWorldId4CallsAbi, sessionIdOf, sessionSeedOf } from "@oro/clients";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { decodeFunctionData } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pendingToText } from "../src/features/verification/pending-enrolment";
import { readStored, resetStorageCache, writeStored } from "../src/lib/storage";
import { WorldAppError } from "../src/lib/world-app/errors";
import { DAY, GENESIS_CUTOFF, KNOWN_SESSION, USER, devPendingEnrolment, devVerification } from "./fakes";
import { renderApp } from "./render-app";

/**
 * A World ID 4.0 human in the app: the enrolment's uniqueness proof (which World App discloses once) is kept on the
 * device and on the API until the chain shows the enrolment, whatever happens between verifying and sliding, so no
 * failure ends in a lock-out; each attempt asks World App for a new session proof that completes it.
 */
const slider = () => screen.getByRole("slider", { name: "Slide to claim your ORO" });

function slideToEnd() {
  fireEvent.pointerDown(slider(), { clientX: 10, pointerType: "mouse" });
  fireEvent.pointerMove(window, { clientX: 2000, pointerType: "mouse" });
  fireEvent.pointerUp(window, { clientX: 2000, pointerType: "mouse" });
}

type App = ReturnType<typeof renderApp>;
const callsNamed = (app: App, name: string) => app.fakes.calls.filter((call) => call.name === name);
const sentFunctions = (app: App) =>
  callsNamed(app, "sendTransaction").map((call) => decodeFunctionData({ abi: oroWorldId4CallsAbi, data: (call.args[0] as { data: `0x${string}` }).data }));
const success = () => screen.findByRole("heading", { name: "+0.5 ORO" }, { timeout: 5000 });
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function verifyAndWaitForSlider() {
  await userEvent.click(await screen.findByRole("button", { name: "Verify with World ID" }));
  await screen.findByRole("slider");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a World ID 4.0 newcomer's enrolment", () => {
  it("verifying keeps the uniqueness proof (30 days, the genesis cut-off) on the device and the API; the slide completes it with a session proof naming receiver, seed and human, then drops it", async () => {
    const app = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null, worldId4: true } });
    await verifyAndWaitForSlider();
    const kept = readStored("pendingEnrolment");
    expect(kept).toMatchObject({ address: USER, kind: "enrol", uniqueness: { credentialGenesisIssuedAtMin: String(GENESIS_CUTOFF) } });
    expect(Number(kept?.uniqueness.expiresAtMin) - nowSeconds()).toBeGreaterThan(29 * DAY);
    expect(callsNamed(app, "keepPendingEnrolment")[0]?.args[1]).toMatchObject({ kind: "enrol", idkitSessionId: kept?.idkitSessionId });

    slideToEnd();
    expect(await success()).toBeInTheDocument();
    const [sent] = sentFunctions(app);
    expect(sent?.functionName).toBe("enrolInWorldId4Session");
    const pending = devPendingEnrolment();
    const [proved] = callsNamed(app, "proveEnrolment");
    expect(proved?.args[1]).toEqual({
      signal: enrolmentSessionSignalOf(USER, sessionSeedOf(pending.idkitSessionId), 0n, pending.uniqueness.nullifier),
      genesisMin: BigInt(GENESIS_CUTOFF),
      expiresAtMin: expect.any(BigInt) as bigint,
    });
    // Landed: the session stays, the proofs go from the device and the API.
    await waitFor(() => expect(readStored("pendingEnrolment")).toBeNull());
    expect(readStored("worldId4")).toEqual({ address: USER, idkitSessionId: pending.idkitSessionId });
    expect(callsNamed(app, "forgetPendingEnrolment")).toHaveLength(1);
  });

  it("a credential that expires within 30 days: World App's refusal of the long expiry falls back to the chain's now", async () => {
    renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null, worldId4: true, credentialExpiresSoon: true } });
    await verifyAndWaitForSlider();
    expect(Math.abs(Number(readStored("pendingEnrolment")?.uniqueness.expiresAtMin) - nowSeconds())).toBeLessThan(60);
    slideToEnd();
    expect(await success()).toBeInTheDocument();
  });

  for (const [what, error] of [
    ["rejected in the wallet", new WorldAppError("sendTransaction", "user_rejected")],
    ["failed on chain", new WorldAppError("sendTransaction", "transaction_failed")],
  ] as const) {
    it(`the transaction ${what}: the proofs stay, and the next slide asks for a new session proof and enrols`, async () => {
      const failing = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null, worldId4: true, sendTransactionError: error } });
      await verifyAndWaitForSlider();
      slideToEnd();
      await waitFor(() => expect(callsNamed(failing, "sendTransaction")).toHaveLength(1));
      await waitFor(() => expect(slider()).toHaveAttribute("aria-valuenow", "0"));
      const kept = readStored("pendingEnrolment");
      expect(kept?.kind).toBe("enrol");
      expect(callsNamed(failing, "forgetPendingEnrolment")).toHaveLength(0);
      cleanup();

      // The same phone a moment later (its storage kept): no prompt but the session proof, and the enrolment lands.
      resetStorageCache();
      const app = renderApp({ options: { lastMintedSecondsAgo: null, worldId4: true, apiPending: callsNamed(failing, "keepPendingEnrolment")[0]?.args[1] as never } });
      await screen.findByRole("slider");
      slideToEnd();
      expect(await success()).toBeInTheDocument();
      expect(callsNamed(app, "worldAppPrompt")).toHaveLength(0);
      expect(sentFunctions(app).map((call) => call.functionName)).toEqual(["enrolInWorldId4Session"]);
      expect(readStored("worldId4")?.idkitSessionId).toBe(kept?.idkitSessionId);
    });
  }

  it("the app closed between verifying and sliding: it opens on the slider with the kept proofs, and enrols", async () => {
    const pending = devPendingEnrolment();
    writeStored("pendingEnrolment", { address: USER, ...pendingToText(pending) });
    const app = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null } });
    await screen.findByRole("slider");
    // The API is given it again (it may not have answered when it was made).
    await waitFor(() => expect(callsNamed(app, "keepPendingEnrolment")).toHaveLength(1));
    slideToEnd();
    expect(await success()).toBeInTheDocument();
    expect(sentFunctions(app)[0]?.args[3]).toMatchObject({ nullifier: pending.uniqueness.nullifier });
  });

  it("a slide 6 hours after verifying still lands (the proof was asked to last 30 days); one whose floor is more than 5 hours old is dropped and the human verifies again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: Date.now() });
    const app = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null, worldId4: true } });
    await verifyAndWaitForSlider();
    vi.setSystemTime(Date.now() + 6 * 3_600_000);
    slideToEnd();
    expect(await success()).toBeInTheDocument();
    expect(sentFunctions(app).map((call) => call.functionName)).toEqual(["enrolInWorldId4Session"]);
    cleanup();
    vi.useRealTimers();

    resetStorageCache();
    const stale = devPendingEnrolment(BigInt(nowSeconds() - 6 * 3600));
    writeStored("pendingEnrolment", { address: USER, ...pendingToText(stale) });
    window.localStorage.removeItem("oro.worldId4");
    resetStorageCache();
    const again = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null } });
    expect(await screen.findByRole("button", { name: "Verify with World ID" })).toBeInTheDocument();
    expect(readStored("pendingEnrolment")).toBeNull();
    expect(callsNamed(again, "sendTransaction")).toHaveLength(0);
  });

  it("a reinstall (nothing on the device): signing in finds the proofs the API keeps, with no World App prompt", async () => {
    const pending = devPendingEnrolment();
    const app = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null, worldId4: true, apiPending: pendingToText(pending) } });
    await screen.findByRole("slider");
    expect(readStored("pendingEnrolment")?.idkitSessionId).toBe(pending.idkitSessionId);
    slideToEnd();
    expect(await success()).toBeInTheDocument();
    expect(callsNamed(app, "worldAppPrompt")).toHaveLength(0);
    await waitFor(() => expect(readStored("worldId4")?.idkitSessionId).toBe(pending.idkitSessionId));
  });

  it("World App answers nullifier_replayed while the API had not answered: the proofs it keeps are read again, and the human enrols", async () => {
    const pending = devPendingEnrolment();
    // Sync and the first look both miss (the API did not answer); after World App's refusal the API answers.
    const app = renderApp({
      signedIn: true,
      options: { lastMintedSecondsAgo: null, apiPending: pendingToText(pending), apiPendingReadFailures: 2, verifyError: new WorldAppError("verify", "nullifier_replayed") },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Verify with World ID" }));
    await screen.findByRole("slider", {}, { timeout: 5000 });
    expect(callsNamed(app, "worldAppPrompt")).toHaveLength(1);
    expect(screen.queryByRole("dialog", { name: "Only verified humans can claim" })).not.toBeInTheDocument();
    slideToEnd();
    expect(await success()).toBeInTheDocument();
  });

  it("a copy of the enrolment sent by someone else landed first: the wallet's own fails, and the chain shows the claim done", async () => {
    const app = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null, worldId4: true, frontRun: true } });
    await verifyAndWaitForSlider();
    slideToEnd();
    expect(await success()).toBeInTheDocument();
    expect(callsNamed(app, "explainRefusal")).toHaveLength(0);
    await waitFor(() => expect(readStored("pendingEnrolment")).toBeNull());
    expect(readStored("worldId4")?.idkitSessionId).toMatch(/^session_/);
  });

  it("a human enrolled from another wallet: the enrolment can never land, so its proofs go and the person is told where to claim", async () => {
    const app = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null, worldId4: true, sendTransactionError: new WorldAppError("sendTransaction", "simulation_failed"), claimRefusal: "alreadyJoined" } });
    await verifyAndWaitForSlider();
    slideToEnd();
    expect(await screen.findByText("This World ID has already joined ORO from another wallet. Open ORO from that wallet to claim.")).toBeInTheDocument();
    expect(readStored("pendingEnrolment")).toBeNull();
    expect(callsNamed(app, "forgetPendingEnrolment")).toHaveLength(1);
  });

  it("a refusal that a fresh session proof may pass keeps the proofs", async () => {
    renderApp({ signedIn: true, options: { lastMintedSecondsAgo: null, worldId4: true, sendTransactionError: new WorldAppError("sendTransaction", "simulation_failed"), claimRefusal: "proofRefused" } });
    await verifyAndWaitForSlider();
    slideToEnd();
    expect(await screen.findByText("World ID did not accept that proof. Slide again to make a new one.")).toBeInTheDocument();
    expect(readStored("pendingEnrolment")?.kind).toBe("enrol");
  });
});

describe("an enrolled human's claim", () => {
  it("finds the session the chain records without a prompt; each claim's session proof asks a later expiry floor than the session's last", async () => {
    const app = renderApp({ signedIn: true, options: { lastMintedSecondsAgo: 2 * DAY, knownSession: KNOWN_SESSION, mintConfirmsAfterReads: 1 } });
    await verifyAndWaitForSlider();
    expect(callsNamed(app, "worldAppPrompt")).toHaveLength(0);
    slideToEnd();
    expect(await success()).toBeInTheDocument();
    const [proved] = callsNamed(app, "proveClaim");
    expect(proved?.args[0]).toBe(KNOWN_SESSION);
    // The session's last floor is an hour ahead of the chain: the new one is just past it.
    const last = BigInt(nowSeconds() + 3600);
    expect(proved?.args[1]).toBeGreaterThan(last - 5n);
    expect(proved?.args[1]).toBeLessThanOrEqual(last + 1n);
    expect(sentFunctions(app).map((call) => call.functionName)).toEqual(["claimWithSession"]);
  });

  it("keeps the session after a refused proof and asks for a fresh one on the next slide", async () => {
    const app = renderApp({
      signedIn: true,
      options: { lastMintedSecondsAgo: 2 * DAY, knownSession: KNOWN_SESSION, sendTransactionError: new WorldAppError("sendTransaction", "simulation_failed"), claimRefusal: "proofRefused" },
    });
    await verifyAndWaitForSlider();
    slideToEnd();
    expect(await screen.findByText("World ID did not accept that proof. Slide again to make a new one.")).toBeInTheDocument();
    expect(readStored("worldId4")?.idkitSessionId).toBe(KNOWN_SESSION);
    await waitFor(() => expect(slider()).toHaveAttribute("aria-valuenow", "0"));
    slideToEnd();
    await waitFor(() => expect(callsNamed(app, "proveClaim")).toHaveLength(2));
  });
});

describe("a 3.0 human's move to World ID 4.0", () => {
  const card = () => screen.findByRole("region", { name: "Move to World ID 4.0" });

  it("moves: the proofs are kept as they come, the session proof names the 3.0 human, and the session stays", async () => {
    const app = renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: 3 * 3600, worldId4App: true } });
    expect(within(await card()).getByText(/1 April 2027/)).toBeInTheDocument();
    await userEvent.click(within(await card()).getByRole("button", { name: "Move to World ID 4.0" }));
    await waitFor(() => expect(readStored("worldId4")?.idkitSessionId).toMatch(/^session_/), { timeout: 5000 });
    const kept = callsNamed(app, "keepPendingEnrolment").map((call) => call.args[1] as { kind: string; worldId3: unknown });
    // First the uniqueness proof alone (before World App's 3.0 prompt), then with the 3.0 proof.
    expect(kept.map((each) => [each.kind, each.worldId3 === null])).toEqual([["move", true], ["move", false]]);
    const sessionId = sessionIdOf(readStored("worldId4")?.idkitSessionId ?? "");
    expect(callsNamed(app, "moveSignal")[0]?.args[0]).toBe(moveSignalOf(USER, sessionId));
    const [proved] = callsNamed(app, "proveEnrolment");
    const pending = devPendingEnrolment(0n, "move");
    expect((proved?.args[1] as { signal: string }).signal).toBe(
      enrolmentSessionSignalOf(USER, sessionSeedOf(pending.idkitSessionId), devVerification().nullifierHash, pending.uniqueness.nullifier),
    );
    expect(sentFunctions(app).map((call) => call.functionName)).toEqual(["moveToWorldId4Session"]);
    await waitFor(() => expect(screen.queryByRole("region", { name: "Move to World ID 4.0" })).not.toBeInTheDocument());
    expect(screen.getByRole("timer")).toBeInTheDocument();
    expect(readStored("pendingEnrolment")).toBeNull();
  });

  it("a move rejected in the wallet is kept: the card finishes it from the kept proofs with one new session proof", async () => {
    const failing = renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: 3 * 3600, worldId4App: true, sendTransactionError: new WorldAppError("sendTransaction", "user_rejected") } });
    await userEvent.click(within(await card()).getByRole("button", { name: "Move to World ID 4.0" }));
    await waitFor(() => expect(callsNamed(failing, "sendTransaction")).toHaveLength(1));
    expect(await within(await card()).findByRole("button", { name: "Finish the move" })).toBeInTheDocument();
    expect(readStored("pendingEnrolment")?.kind).toBe("move");
    cleanup();

    resetStorageCache();
    const app = renderApp({ options: { lastMintedSecondsAgo: 3 * 3600, worldId4App: true } });
    await userEvent.click(within(await card()).getByRole("button", { name: "Finish the move" }));
    await waitFor(() => expect(readStored("worldId4")?.idkitSessionId).toMatch(/^session_/), { timeout: 5000 });
    expect((callsNamed(app, "moveProofs")[0]?.args[1] as { worldId3: unknown } | null)?.worldId3).not.toBeNull();
    expect(callsNamed(app, "getWorldIdRequest").map((call) => call.args[0])).toEqual(["session"]);
    expect(sentFunctions(app).map((call) => call.functionName)).toEqual(["moveToWorldId4Session"]);
  });

  it("once the owner closed 3.0, a pending move enrols the human instead (no 3.0 human named), and claims", async () => {
    const pending = { ...devPendingEnrolment(undefined, "move"), worldId3: devVerification() };
    writeStored("pendingEnrolment", { address: USER, ...pendingToText(pending) });
    const app = renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: null, worldId3Closed: true, worldId4App: true } });
    await screen.findByRole("slider");
    expect(screen.queryByRole("region", { name: "Move to World ID 4.0" })).not.toBeInTheDocument();
    slideToEnd();
    expect(await success()).toBeInTheDocument();
    expect(sentFunctions(app).map((call) => call.functionName)).toEqual(["enrolInWorldId4Session"]);
    expect((callsNamed(app, "proveEnrolment")[0]?.args[1] as { signal: string }).signal).toBe(
      enrolmentSessionSignalOf(USER, sessionSeedOf(pending.idkitSessionId), 0n, pending.uniqueness.nullifier),
    );
  });

  it("is not invited when World App makes only 3.0 proofs; once 3.0 is closed a 3.0 proof no longer counts", async () => {
    renderApp({ signedIn: true, verified: true, options: { lastMintedSecondsAgo: 3 * 3600, worldId4App: false } });
    expect(await screen.findByRole("timer")).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole("region", { name: "Move to World ID 4.0" })).not.toBeInTheDocument();
    cleanup();
    resetStorageCache();
    renderApp({ signedIn: true, verified: true, options: { worldId3Closed: true, worldId4App: true } });
    expect(await screen.findByRole("button", { name: "Verify with World ID" })).toBeInTheDocument();
  });
});
