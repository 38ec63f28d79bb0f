import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ApiSchemas } from "@oro/clients";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REFERRAL_CLAIM, USER, type FakeOptions } from "./fakes";
import { flush, renderApp } from "./render-app";
import { bustedReads, earnings, earningsCalls, invite, iso, ORO, voucher } from "./share-earnings";

// The share screen's rewards: claiming an invite's voucher, and the referee's own reward.
afterEach(() => {
  vi.useRealTimers();
});

describe("reward claims", () => {
  async function renderWithOneInvite(options: FakeOptions = {}) {
    const app = renderApp({ path: "/share", signedIn: true, options: { earnings: earnings({ usersReferred: [invite("dana", "claimable", false, 120, 7)] }), ...options } });
    await screen.findAllByRole("button", { name: "Claim 1 ORO" });
    // The clock is stopped once the screen (its own chunk) has loaded.
    vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    return app;
  }
  const names = (app: ReturnType<typeof renderApp>) => app.fakes.calls.map((call) => call.name);

  it("previews, sends ReferralClaim.claim through the wallet, then refetches without cache at 500 ms and clears 'claiming' at 1 s", async () => {
    const app = await renderWithOneInvite({
      earnings: earnings({ usersReferred: [invite("dana", "claimable", false, 120, 7), invite("eve", "claimable", false, 300, 8)] }),
    });
    const [first, second] = screen.getAllByRole("button", { name: "Claim 1 ORO" });
    if (!first || !second) throw new Error("two invites expected");
    fireEvent.click(first);
    expect(first).toHaveTextContent("Claiming…");
    expect(second).toBeDisabled();
    await flush(0);
    await flush(0);
    const order = names(app);
    expect(order.indexOf("previewVoucherClaim")).toBeLessThan(order.indexOf("sendTransaction"));
    expect(app.fakes.calls.find((call) => call.name === "sendTransaction")?.args[0]).toMatchObject({ to: REFERRAL_CLAIM });
    expect(app.fakes.calls.find((call) => call.name === "event:referral_claim_success")?.args[0]).toEqual({ claimType: "referral" });
    // Seen on chain: the check mark shows at once, before the API's answer says so.
    expect(screen.getByRole("button", { name: "Paid: 1 ORO" })).toBeDisabled();
    await flush(490);
    expect(bustedReads(app)).toHaveLength(0);
    await flush(10);
    expect(bustedReads(app)).toHaveLength(1);
    expect(bustedReads(app)[0]?.args).toEqual([USER, { forceBustCache: true }]);
    // One claim at a time: the other entry waits for the claiming flag, which clears 1 s after completion.
    expect(screen.getByRole("button", { name: "Claim 1 ORO" })).toBeDisabled();
    await flush(490);
    expect(screen.getByRole("button", { name: "Claim 1 ORO" })).toBeDisabled();
    await flush(10);
    expect(screen.getByRole("button", { name: "Claim 1 ORO" })).toBeEnabled();
  });

  it("the claiming flag clears exactly 1 s after completion", async () => {
    const app = await renderWithOneInvite({ voucherClaimWithoutId: true });
    fireEvent.click(screen.getByRole("button", { name: "Claim 1 ORO" }));
    await flush(0);
    await flush(0);
    expect(screen.getByRole("button", { name: "Claiming…" })).toBeInTheDocument();
    await flush(990);
    expect(screen.getByRole("button", { name: "Claiming…" })).toBeInTheDocument();
    await flush(10);
    expect(screen.getByRole("button", { name: "Claim 1 ORO" })).toBeEnabled();
    // No transaction id: silent, nothing refetched, no error shown.
    expect(bustedReads(app)).toHaveLength(0);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("a voucher already used (another device) costs no transaction: the entry shows as claimed", async () => {
    const app = await renderWithOneInvite({ claimedVoucherNonces: ["7"] });
    fireEvent.click(screen.getByRole("button", { name: "Claim 1 ORO" }));
    await flush(0);
    await flush(0);
    expect(names(app)).toContain("previewVoucherClaim");
    expect(names(app)).not.toContain("sendTransaction");
    expect(screen.getByRole("button", { name: "Paid: 1 ORO" })).toBeDisabled();
  });

  it("a claim never seen on chain fails silently and the Claim button comes back", async () => {
    const app = await renderWithOneInvite({ voucherConfirmsAfterReads: Number.POSITIVE_INFINITY });
    fireEvent.click(screen.getByRole("button", { name: "Claim 1 ORO" }));
    await flush(0);
    await flush(0);
    expect(names(app)).toContain("sendTransaction");
    await flush(121_000);
    await flush(1000);
    expect(screen.getByRole("button", { name: "Claim 1 ORO" })).toBeEnabled();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(names(app)).not.toContain("event:referral_claim_success");
  });

  it("a wallet refusal fails silently", async () => {
    await renderWithOneInvite({ sendTransactionError: Object.assign(new Error("rejected"), { code: "user_rejected" }) });
    fireEvent.click(screen.getByRole("button", { name: "Claim 1 ORO" }));
    await flush(0);
    await flush(1000);
    expect(screen.getByRole("button", { name: "Claim 1 ORO" })).toBeEnabled();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});

describe("referee reward", () => {
  const refereeEarnings = earnings({
    referredByUsername: "bob",
    rewardForBeingReferee: { paymentType: "claimable", paymentAmountWei: (ORO / 2n).toString(), hasClaimed: false, updatedAt: iso(60), claimableSignature: voucher(9, ORO / 2n) },
  });

  it("shows the referrer's panel; after the claim the success modal with coin rain and 'earned extra ORO from bob'", async () => {
    const app = renderApp({ path: "/share", signedIn: true, options: { earnings: refereeEarnings } });
    const panel = await screen.findByRole("region", { name: "Invited by bob" });
    expect(panel).toHaveTextContent("Your bonus of 0.5 ORO for joining with an invite is ready.");
    await userEvent.click(within(panel).getByRole("button", { name: "Claim" }));
    // The rain first, by its cheap test id: it goes after 5 s, and a role query on a loaded machine can take that long.
    expect(await screen.findByTestId("coin-rain")).toBeInTheDocument();
    const dialog = await screen.findByRole("dialog", { name: "+0.5 ORO" });
    expect(dialog).toHaveTextContent("You earned extra ORO from bob");
    expect(app.fakes.calls.find((call) => call.name === "event:referral_claim_success")?.args[0]).toEqual({ claimType: "claim" });
    expect(screen.queryByRole("region", { name: "Invited by bob" })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Great!" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("while the person's own invite waits for their first claim to be seen, reads again every 5 s (through the cache) until the reward comes", async () => {
    let activated = false;
    const waiting = earnings({ referredByUsername: "bob", refereeRewardPending: true });
    // The screen's chunk loads in real time; the screen's own timers are fake from the start (the poll starts with the answer).
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const app = renderApp({ path: "/share", signedIn: true, options: { earnings: () => (activated ? refereeEarnings : waiting) } });
    await screen.findByRole("heading", { name: "Invites" });
    expect(screen.queryByRole("region", { name: "Invited by bob" })).not.toBeInTheDocument();
    const before = earningsCalls(app).length;
    await flush(5_000);
    expect(earningsCalls(app).length).toBeGreaterThan(before);
    expect(earningsCalls(app).at(-1)?.args).toEqual([USER, { forceBustCache: false }]);
    expect(screen.queryByRole("region", { name: "Invited by bob" })).not.toBeInTheDocument();
    activated = true; // the API activated the invite (the referee's first mint is indexed)
    await flush(5_000);
    expect(screen.getByRole("region", { name: "Invited by bob" })).toBeInTheDocument();
    // Nothing is on its way any more: no more reads.
    const after = earningsCalls(app).length;
    await flush(15_000);
    expect(earningsCalls(app).length).toBe(after);
  });

  it("reads nothing again when the reward is there, or the person was not invited", async () => {
    const app = renderApp({ path: "/share", signedIn: true, options: { earnings: refereeEarnings } });
    await screen.findByRole("region", { name: "Invited by bob" });
    vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const before = earningsCalls(app).length;
    await flush(20_000);
    expect(earningsCalls(app).length).toBe(before);
  });

  it.each([
    ["claimed", (reward: ApiSchemas["RefereeReward"]): ApiSchemas["RefereeReward"] => ({ ...reward, hasClaimed: true })],
    ["auto-paid", ({ paymentType: _type, claimableSignature: _voucher, ...rest }: ApiSchemas["RefereeReward"]): ApiSchemas["RefereeReward"] => ({ ...rest, paymentType: "auto" })],
  ])("shows no panel when the reward is %s", async (_, change) => {
    const reward = refereeEarnings.rewardForBeingReferee;
    if (!reward) throw new Error("fixture");
    const changed = change(reward);
    renderApp({ path: "/share", signedIn: true, options: { earnings: { ...refereeEarnings, rewardForBeingReferee: changed } } });
    await screen.findByRole("heading", { name: "Invites" });
    expect(screen.queryByRole("region", { name: "Invited by bob" })).not.toBeInTheDocument();
  });
});
