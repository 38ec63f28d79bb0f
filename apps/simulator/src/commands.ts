import { buildDevProof, signalHashOf } from "@oro/clients";
import { BaseError, ContractFunctionRevertedError, encodeAbiParameters, getAddress, isAddress, isHex, keccak256, stringToHex, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { LocalChain } from "./chain.js";
import type { SimulatedHuman, SimulatedWallet } from "./humans.js";
import { answerWorldId4, readWorldId4Request, refusedRpContext, type WorldId4Request } from "./world-id-4.js";

/** What the mini app posted through `webkit.messageHandlers.minikit.postMessage` (MiniKit or IDKit). */
export interface BridgeMessage {
  command: string;
  version?: number;
  payload?: unknown;
}

/** What World App answers through `window.MiniKit.trigger(event, payload)`. */
export interface BridgeAnswer {
  event: string;
  payload: Record<string, unknown>;
}

export type NotificationPermission = "not-asked" | "granted" | "denied";

export interface Switches {
  /** One-shot: the next World ID request ends in `verification_rejected`. */
  verificationFails: boolean;
  /**
   * One-shot: the next transaction fails on chain or is rejected by the user, or a front-runner who read it from the
   * mempool lands a copy of it first (from another account), so the wallet's own then fails.
   */
  nextTransaction: "send" | "fail" | "reject" | "front-run";
  /** What the user answers when the mini app asks for the notification permission. */
  notificationAnswer: "allow" | "deny";
  /** World App still makes World ID 3.0 proofs (it stops on 1 April 2027). */
  worldId3Proofs: boolean;
}

export interface SharedContent {
  at: string;
  wallet: Address;
  title: string | null;
  text: string | null;
  url: string | null;
}

export interface CommandContext {
  human: SimulatedHuman;
  wallet: SimulatedWallet;
  switches: Switches;
  chain: LocalChain;
  /** The deployment's World ID app and 3.0 action, and the relying party's request signer. */
  world: { appId: string; action: string; rpSigner: Address };
  permissions: Map<string, NotificationPermission>;
  shares: SharedContent[];
  /** false when the person at the simulator declined World App's confirmation sheet. */
  approved: boolean;
}

export interface CommandOutcome {
  answer: BridgeAnswer | null;
  summary: string;
}

/** The account of someone who copies pending transactions from the mempool (the front-run switch). */
const FRONT_RUNNER = privateKeyToAccount(keccak256(stringToHex("oro-simulator-front-runner")));

/** What a World App not yet updated for World ID 4.0 announces: IDKit then sends verify v1 (3.0 only). */
export function supportedCommandsOf(credentials: SimulatedHuman["credentials"]): { name: string; supported_versions: number[] }[] {
  return credentials === "3.0-only" ? SUPPORTED_COMMANDS.map((command) => (command.name === "verify" ? { ...command, supported_versions: [1] } : command)) : SUPPORTED_COMMANDS;
}

/** The MiniKit command names World App announces in `WorldApp.supported_commands`, with their versions. */
export const SUPPORTED_COMMANDS: { name: string; supported_versions: number[] }[] = [
  { name: "wallet-auth", supported_versions: [2] },
  { name: "send-transaction", supported_versions: [2] },
  { name: "sign-message", supported_versions: [1] },
  { name: "share", supported_versions: [1] },
  { name: "get-permissions", supported_versions: [1] },
  { name: "request-permission", supported_versions: [1] },
  { name: "send-haptic-feedback", supported_versions: [1] },
  { name: "close-miniapp", supported_versions: [1] },
  // Announced as World App does; the simulator declines them (generic_error), the ORO mini app does not use them.
  { name: "pay", supported_versions: [1] },
  { name: "attestation", supported_versions: [1] },
  { name: "sign-typed-data", supported_versions: [1] },
  { name: "share-contacts", supported_versions: [1] },
  { name: "chat", supported_versions: [1] },
  // IDKit 4 sends World ID requests through the same bridge and reads this entry to pick its payload version.
  { name: "verify", supported_versions: [1, 2] },
];

/** The event each command's answer arrives on (MiniKit's ResponseEvent, IDKit's miniapp-verify-action). */
const RESPONSE_EVENTS: Record<string, string> = {
  "wallet-auth": "miniapp-wallet-auth",
  "send-transaction": "miniapp-send-transaction",
  "sign-message": "miniapp-sign-message",
  share: "miniapp-share",
  "get-permissions": "miniapp-get-permissions",
  "request-permission": "miniapp-request-permission",
  "send-haptic-feedback": "miniapp-send-haptic-feedback",
  verify: "miniapp-verify-action",
  pay: "miniapp-payment",
  attestation: "miniapp-attestation",
  "sign-typed-data": "miniapp-sign-typed-data",
  "share-contacts": "miniapp-share-contacts",
  chat: "miniapp-chat",
};

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function failure(event: string, version: number, errorCode: string, details?: Record<string, unknown>): BridgeAnswer {
  return { event, payload: { status: "error", error_code: errorCode, version, ...(details ? { details } : {}) } };
}

/** The reason a call reverts, as World App's simulation step would report it. */
function revertReason(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName ?? reverted.reason ?? reverted.shortMessage;
    return error.shortMessage;
  }
  return error instanceof Error ? error.message : String(error);
}

function parseValue(value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "string" && value !== "") return BigInt(value);
  if (typeof value === "number") return BigInt(value);
  return 0n;
}

/** The wallet among the human's whose signal hash the IDKit request carries (the receiver of the mint). */
function signalWallet(ctx: CommandContext, payload: unknown): SimulatedWallet {
  const haystack = JSON.stringify(payload).toLowerCase();
  const candidates = [ctx.wallet, ...ctx.human.wallets.filter((wallet) => wallet.id !== ctx.wallet.id)];
  const match = candidates.find((wallet) => {
    const hash = signalHashOf(wallet.account.address).toString(16);
    return haystack.includes(hash) || haystack.includes(wallet.account.address.toLowerCase());
  });
  return match ?? ctx.wallet;
}

export async function answerCommand(message: BridgeMessage, ctx: CommandContext): Promise<CommandOutcome> {
  const event = RESPONSE_EVENTS[message.command];
  const version = message.version ?? 1;
  const payload = record(message.payload);
  const address = ctx.wallet.account.address;
  if (!event) return { answer: null, summary: message.command === "init" ? "MiniKit installed" : `${message.command}: nothing to answer` };
  const rejected = (what: string, code = "user_rejected"): CommandOutcome => ({ answer: failure(event, version, code), summary: `${what}: rejected by the user` });

  switch (message.command) {
    case "wallet-auth": {
      const siweMessage = text(payload.siweMessage);
      if (!siweMessage) return { answer: failure(event, version, "malformed_request"), summary: "walletAuth: no SIWE message" };
      if (!ctx.approved) return rejected("walletAuth");
      // World App fills in the wallet's address, then signs the message MiniKit prepared.
      const signed = siweMessage.replace("{address}", address);
      const signature = await ctx.wallet.account.signMessage({ message: signed });
      return { answer: { event, payload: { status: "success", version, address, message: signed, signature } }, summary: `walletAuth: signed in as ${address}` };
    }
    case "sign-message": {
      const toSign = text(payload.message);
      if (toSign === null) return { answer: failure(event, version, "invalid_message"), summary: "signMessage: no message" };
      if (!ctx.approved) return rejected("signMessage");
      const signature = await ctx.wallet.account.signMessage({ message: toSign });
      return { answer: { event, payload: { status: "success", version, signature, address } }, summary: `signMessage: signed ${JSON.stringify(toSign.slice(0, 60))}` };
    }
    case "send-transaction": {
      const transactions = Array.isArray(payload.transactions) ? payload.transactions.map(record) : [];
      const calls = transactions.map((tx) => ({ to: tx.to ?? tx.address, data: tx.data, value: parseValue(tx.value) }));
      if (calls.length === 0 || calls.some((call) => typeof call.to !== "string" || !isAddress(call.to) || (call.data !== undefined && !isHex(call.data)))) {
        return { answer: failure(event, version, "input_error"), summary: "sendTransaction: malformed transactions" };
      }
      const mode = ctx.switches.nextTransaction;
      ctx.switches.nextTransaction = "send";
      if (!ctx.approved || mode === "reject") return rejected("sendTransaction");
      if (mode === "fail") return { answer: failure(event, version, "transaction_failed"), summary: "sendTransaction: failed (switch)" };
      const prepared = calls.map((call) => ({ to: getAddress(call.to as string), data: (call.data ?? "0x") as Hex, value: call.value }));
      if (mode === "front-run") {
        // Someone watching the mempool sends the same calls first; whatever they do lands before the wallet's.
        for (const call of prepared) await ctx.chain.send(FRONT_RUNNER, call).catch(() => undefined);
      }
      // World App simulates first and refuses what would revert, naming the reason.
      for (const call of prepared) {
        try {
          await ctx.chain.publicClient.call({ account: address, to: call.to, data: call.data, value: call.value });
        } catch (error) {
          const reason = revertReason(error);
          return { answer: failure(event, version, "simulation_failed", { reason }), summary: `sendTransaction: simulation failed (${reason})` };
        }
      }
      let hash: Hex | undefined;
      for (const call of prepared) hash = await ctx.chain.send(ctx.wallet.account, call);
      if (!hash) return { answer: failure(event, version, "generic_error"), summary: "sendTransaction: nothing sent" };
      // The user operation hash of World App is played by the (last) transaction hash on the local chain.
      return {
        answer: { event, payload: { status: "success", version, userOpHash: hash, transaction_id: hash, from: address, network: "worldchain", timestamp: new Date().toISOString() } },
        summary: `sendTransaction: ${hash}`,
      };
    }
    case "share": {
      if (!ctx.approved) return rejected("share");
      ctx.shares.unshift({ at: new Date().toISOString(), wallet: address, title: text(payload.title), text: text(payload.text), url: text(payload.url) });
      return { answer: { event, payload: { status: "success", version, shared_files_count: 0, timestamp: new Date().toISOString() } }, summary: `share: ${text(payload.url) ?? text(payload.text) ?? ""}` };
    }
    case "get-permissions": {
      const granted = ctx.permissions.get(ctx.wallet.id) === "granted";
      return {
        answer: { event, payload: { status: "success", version, permissions: { notifications: granted, contacts: false, microphone: false }, timestamp: new Date().toISOString() } },
        summary: `getPermissions: notifications ${granted ? "on" : "off"}`,
      };
    }
    case "request-permission": {
      if (payload.permission !== "notifications") return { answer: failure(event, version, "unsupported_permission"), summary: `requestPermission: ${String(payload.permission)} unsupported` };
      const current = ctx.permissions.get(ctx.wallet.id) ?? "not-asked";
      if (current === "granted") return { answer: failure(event, version, "already_granted"), summary: "requestPermission: already granted" };
      if (current === "denied") return { answer: failure(event, version, "already_requested"), summary: "requestPermission: already requested (denied before)" };
      if (ctx.switches.notificationAnswer === "deny" || !ctx.approved) {
        ctx.permissions.set(ctx.wallet.id, "denied");
        return rejected("requestPermission");
      }
      ctx.permissions.set(ctx.wallet.id, "granted");
      return { answer: { event, payload: { status: "success", version, permission: "notifications", timestamp: new Date().toISOString() } }, summary: "requestPermission: notifications granted" };
    }
    case "send-haptic-feedback":
      return { answer: { event, payload: { status: "success", version, timestamp: new Date().toISOString() } }, summary: `haptic feedback (${text(payload.hapticsType) ?? ""})` };
    case "verify": {
      if (!ctx.human.orbVerified) return { answer: failure(event, version, "credential_unavailable"), summary: `World ID: ${ctx.human.name} is not Orb-verified` };
      if (!ctx.approved) return rejected("World ID");
      if (ctx.switches.verificationFails) {
        ctx.switches.verificationFails = false;
        return { answer: failure(event, version, "verification_rejected"), summary: "World ID: verification failed (switch)" };
      }
      let request: WorldId4Request | null;
      try {
        request = readWorldId4Request(payload);
      } catch (error) {
        return { answer: failure(event, version, "malformed_request"), summary: `World ID: malformed request (${(error as Error).message})` };
      }
      if (request) {
        const refused = await refusedRpContext(payload, request, ctx.world.rpSigner);
        if (refused) return { answer: failure(event, version, refused), summary: `World ID 4.0: the request's signature is refused (${refused})` };
        if (ctx.human.credentials === "3.0-only") return { answer: failure(event, version, "world_id_4_not_available"), summary: `World ID: ${ctx.human.name}'s World App makes no 4.0 proof` };
        const latest = await ctx.chain.publicClient.getBlock({ blockTag: "latest" });
        const chainNow = Math.max(Number(latest.timestamp), Math.floor(Date.now() / 1000));
        const outcome = answerWorldId4(ctx.human, request, chainNow);
        if (!outcome.ok) return { answer: failure(event, version, outcome.errorCode), summary: outcome.summary };
        return { answer: { event, payload: { status: "success", version, proof_response: outcome.proofResponse } }, summary: outcome.summary };
      }
      // A 3.0-only request (IDKit's legacy presets): none for a human verified since 4.0, none at all once World stops.
      if (ctx.human.credentials === "4.0-only" || !ctx.switches.worldId3Proofs) {
        return { answer: failure(event, version, "world_id_3_not_available"), summary: `World ID: no 3.0 proof for ${ctx.human.name}` };
      }
      const receiver = signalWallet(ctx, message.payload).account.address;
      // World App proves the signal hash the request carries (IDKit hashes the signal: an address, or a move's session id).
      const requested = typeof payload.signal === "string" && isHex(payload.signal) && payload.signal.length === 66 ? BigInt(payload.signal) : undefined;
      const proof = buildDevProof({ receiver, signalHash: requested, nullifierHash: ctx.human.nullifierHash, appId: ctx.world.appId, action: ctx.world.action });
      return {
        answer: {
          event,
          payload: {
            status: "success",
            version,
            verification_level: "orb",
            proof: encodeAbiParameters([{ type: "uint256[8]" }], [proof.proof]),
            merkle_root: toHex(proof.root, { size: 32 }),
            nullifier_hash: toHex(proof.nullifierHash, { size: 32 }),
          },
        },
        summary: `World ID: development proof for ${ctx.human.name}, signal ${receiver}`,
      };
    }
    default:
      return { answer: failure(event, version, "generic_error"), summary: `${message.command}: not simulated (generic_error)` };
  }
}
