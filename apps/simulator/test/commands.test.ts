import { buildDevProof } from "@oro/clients";
import { decodeAbiParameters, recoverMessageAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { LocalChain } from "../src/chain.js";
import { answerCommand, type CommandContext, type NotificationPermission } from "../src/commands.js";
import { createHumans } from "../src/humans.js";
import { injectBridge } from "../src/proxy.js";

const world = { appId: "app_staging_oro_local", action: "claim-tokens-action", rpSigner: "0x0000000000000000000000000000000000000001" as const };
/** Commands that must not reach the chain get a chain that fails the test if touched. */
const noChain = new Proxy({} as LocalChain, {
  get(_target, property) {
    throw new Error(`the chain was used (${String(property)})`);
  },
});

function context(overrides: Partial<CommandContext> = {}): CommandContext {
  const humans = createHumans();
  const bob = humans.find((human) => human.id === "bob");
  const wallet = bob?.wallets[0];
  if (!bob || !wallet) throw new Error("no bob");
  return {
    human: bob,
    wallet,
    switches: { verificationFails: false, nextTransaction: "send", notificationAnswer: "allow", worldId3Proofs: true },
    chain: noChain,
    world,
    permissions: new Map<string, NotificationPermission>(),
    shares: [],
    approved: true,
    ...overrides,
  };
}

const SIWE = [
  "http://127.0.0.1:18600 wants you to sign in with your Ethereum account:",
  "{address}",
  "",
  "Claim ORO daily.",
  "",
  "URI: http://127.0.0.1:18600/",
  "Version: 1",
  "Chain ID: 480",
  "Nonce: Abcdefgh1234",
  "Issued At: 2026-01-01T00:00:00.000Z",
].join("\n");

describe("the wallet's answers", () => {
  it("walletAuth: fills in the wallet's address and signs the SIWE message with its key", async () => {
    const ctx = context();
    const { answer } = await answerCommand({ command: "wallet-auth", version: 2, payload: { siweMessage: SIWE } }, ctx);
    expect(answer?.event).toBe("miniapp-wallet-auth");
    const payload = answer?.payload as { status: string; address: string; message: string; signature: Hex };
    expect(payload.status).toBe("success");
    expect(payload.address).toBe(ctx.wallet.account.address);
    expect(payload.message).toContain(`\n${ctx.wallet.account.address}\n`);
    expect(await recoverMessageAddress({ message: payload.message, signature: payload.signature })).toBe(ctx.wallet.account.address);
  });

  it("walletAuth declined at the sheet is user_rejected", async () => {
    const { answer } = await answerCommand({ command: "wallet-auth", version: 2, payload: { siweMessage: SIWE } }, context({ approved: false }));
    expect(answer?.payload).toMatchObject({ status: "error", error_code: "user_rejected" });
  });

  it("signMessage signs with the active wallet", async () => {
    const ctx = context();
    const { answer } = await answerCommand({ command: "sign-message", version: 1, payload: { message: "hello" } }, ctx);
    const payload = answer?.payload as { signature: Hex; address: string };
    expect(await recoverMessageAddress({ message: "hello", signature: payload.signature })).toBe(ctx.wallet.account.address);
  });

  it("World ID: a development proof for the human's nullifier, bound to the signalled wallet of that human", async () => {
    const ctx = context();
    const second = ctx.human.wallets[1];
    if (!second) throw new Error("bob has two wallets");
    // IDKit carries the signal's hash; here the request is for Bob's second wallet while the first is active.
    const { signalHashOf } = await import("@oro/clients");
    const request = { signal_hash: `0x${signalHashOf(second.account.address).toString(16).padStart(64, "0")}`, action: world.action };
    const { answer } = await answerCommand({ command: "verify", version: 2, payload: request }, ctx);
    expect(answer?.event).toBe("miniapp-verify-action");
    const payload = answer?.payload as { status: string; proof: Hex; merkle_root: Hex; nullifier_hash: Hex; verification_level: string };
    expect(payload).toMatchObject({ status: "success", verification_level: "orb" });
    const expected = buildDevProof({ receiver: second.account.address, nullifierHash: ctx.human.nullifierHash, appId: world.appId, action: world.action });
    const [proof] = decodeAbiParameters([{ type: "uint256[8]" }], payload.proof);
    expect(proof).toEqual(expected.proof);
    expect(BigInt(payload.nullifier_hash)).toBe(ctx.human.nullifierHash);
    expect(BigInt(payload.merkle_root)).toBe(expected.root);
  });

  it("World ID: an unverified human gets credential_unavailable; the one-shot failure switch gives verification_rejected once", async () => {
    const unverified = context();
    unverified.human.orbVerified = false;
    expect((await answerCommand({ command: "verify", payload: {} }, unverified)).answer?.payload).toMatchObject({ status: "error", error_code: "credential_unavailable" });
    const failing = context();
    failing.switches.verificationFails = true;
    expect((await answerCommand({ command: "verify", payload: {} }, failing)).answer?.payload).toMatchObject({ status: "error", error_code: "verification_rejected" });
    expect((await answerCommand({ command: "verify", payload: {} }, failing)).answer?.payload).toMatchObject({ status: "success" });
  });

  it("sendTransaction: the rejection and failure switches answer without touching the chain, once each", async () => {
    const ctx = context();
    const call = { command: "send-transaction", version: 2, payload: { chainId: 480, transactions: [{ to: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", data: "0x1234" }] } };
    ctx.switches.nextTransaction = "reject";
    expect((await answerCommand(call, ctx)).answer?.payload).toMatchObject({ status: "error", error_code: "user_rejected" });
    expect(ctx.switches.nextTransaction).toBe("send");
    ctx.switches.nextTransaction = "fail";
    expect((await answerCommand(call, ctx)).answer?.payload).toMatchObject({ status: "error", error_code: "transaction_failed" });
    expect((await answerCommand({ ...call, payload: { transactions: [{ to: "nope" }] } }, ctx)).answer?.payload).toMatchObject({ error_code: "input_error" });
  });

  it("sendTransaction: a front-runner lands a copy first (another account, the same calls); the wallet's own then fails World App's simulation", async () => {
    const sent: { from: string; to: string; data: string }[] = [];
    const chain = {
      send: (account: { address: string }, call: { to: string; data: string }) => {
        sent.push({ from: account.address, ...call });
        return Promise.resolve(`0x${"ab".repeat(32)}`);
      },
      // The copy landed: the same call from the wallet now reverts.
      publicClient: { call: () => (sent.length > 0 ? Promise.reject(new Error("execution reverted: HumanAlreadyEnrolled")) : Promise.resolve({ data: "0x" })) },
    } as unknown as LocalChain;
    const ctx = context({ chain });
    ctx.switches.nextTransaction = "front-run";
    const call = { command: "send-transaction", version: 2, payload: { chainId: 480, transactions: [{ to: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", data: "0x1234" }] } };
    const { answer } = await answerCommand(call, ctx);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", data: "0x1234" });
    expect(sent[0]?.from).not.toBe(ctx.wallet.account.address);
    expect(answer?.payload).toMatchObject({ status: "error", error_code: "simulation_failed" });
    expect(ctx.switches.nextTransaction).toBe("send");
  });

  it("notifications: granted once, then already_granted; denied, then already_requested", async () => {
    const ctx = context();
    const ask = { command: "request-permission", version: 1, payload: { permission: "notifications" } };
    expect((await answerCommand(ask, ctx)).answer?.payload).toMatchObject({ status: "success", permission: "notifications" });
    expect((await answerCommand({ command: "get-permissions", payload: {} }, ctx)).answer?.payload).toMatchObject({ permissions: { notifications: true } });
    expect((await answerCommand(ask, ctx)).answer?.payload).toMatchObject({ status: "error", error_code: "already_granted" });
    const denying = context();
    denying.switches.notificationAnswer = "deny";
    expect((await answerCommand(ask, denying)).answer?.payload).toMatchObject({ status: "error", error_code: "user_rejected" });
    expect((await answerCommand(ask, denying)).answer?.payload).toMatchObject({ status: "error", error_code: "already_requested" });
    expect((await answerCommand({ command: "get-permissions", payload: {} }, denying)).answer?.payload).toMatchObject({ permissions: { notifications: false } });
  });

  it("share is captured for the simulator page", async () => {
    const ctx = context();
    const { answer } = await answerCommand({ command: "share", payload: { title: "ORO", text: "Join me", url: "https://example.org/?referralCode=ABCD2345" } }, ctx);
    expect(answer?.payload).toMatchObject({ status: "success" });
    expect(ctx.shares[0]).toMatchObject({ title: "ORO", text: "Join me", url: "https://example.org/?referralCode=ABCD2345", wallet: ctx.wallet.account.address });
  });

  it("init gets no answer; a command ORO does not use is declined on its event", async () => {
    expect((await answerCommand({ command: "init", payload: {} }, context())).answer).toBeNull();
    expect((await answerCommand({ command: "pay", payload: {} }, context())).answer).toEqual({ event: "miniapp-payment", payload: { status: "error", error_code: "generic_error", version: 1 } });
  });
});

describe("simulated humans", () => {
  it("one human with two wallets shares one nullifier; every wallet has its own address", () => {
    const humans = createHumans();
    const bob = humans.find((human) => human.id === "bob");
    expect(bob?.wallets).toHaveLength(2);
    const addresses = new Set(humans.flatMap((human) => human.wallets.map((wallet) => wallet.account.address)));
    expect(addresses.size).toBe(humans.flatMap((human) => human.wallets).length);
    expect(new Set(humans.map((human) => human.nullifierHash)).size).toBe(humans.length);
  });
});

describe("the bridge script tag", () => {
  it("goes first in <head>, before the mini app's own scripts", () => {
    const html = '<!doctype html><html lang="en"><head data-x="1"><script type="module" src="/src/main.tsx"></script></head></html>';
    const injected = injectBridge(html);
    expect(injected.indexOf("/__simulator/bridge.js")).toBeLessThan(injected.indexOf("/src/main.tsx"));
    expect(injected.startsWith('<!doctype html><html lang="en"><head data-x="1"><script src="/__simulator/bridge.js">')).toBe(true);
  });
});
