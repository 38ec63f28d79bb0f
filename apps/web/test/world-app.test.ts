import { oroAbi } from "@oro/clients";
import { MiniKit } from "@worldcoin/minikit-js";
import { COMMAND_VERSIONS, ResponseEvent } from "@worldcoin/minikit-js/commands";
import { decodeFunctionData, encodeAbiParameters, type Hex } from "viem";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildMintCall } from "../src/lib/chain";
import { isUserRejection, WorldAppError } from "../src/lib/world-app/errors";
import { getPermissions } from "../src/lib/world-app/get-permissions";
import { installMiniKit, isInWorldApp } from "../src/lib/world-app/install";
import { requestNotificationPermission } from "../src/lib/world-app/request-permission";
import { sendTransaction } from "../src/lib/world-app/send-transaction";
import { share } from "../src/lib/world-app/share";
import { decodeLegacyProof } from "../src/lib/world-app/verify";
import { walletAuth } from "../src/lib/world-app/wallet-auth";
import { devVerification, USER } from "./fakes";

/**
 * The page stands in for World App (ENVIRONMENT.md): window.WorldApp announces the commands, and
 * window.webkit.messageHandlers.minikit.postMessage receives them; answers go back through MiniKit.trigger.
 */
interface Sent {
  command: string;
  version: number;
  payload: Record<string, unknown>;
}
const sent: Sent[] = [];
let answer: (message: Sent) => [ResponseEvent, unknown] | null = () => null;

beforeAll(() => {
  Object.assign(window, {
    WorldApp: {
      world_app_version: 4_000_000,
      device_os: "android",
      is_optional_analytics: false,
      supported_commands: Object.entries(COMMAND_VERSIONS).map(([name, version]) => ({ name, supported_versions: [version] })),
      safe_area_insets: { top: 47, right: 0, bottom: 34, left: 0 },
    },
    webkit: {
      messageHandlers: {
        minikit: {
          postMessage: (message: Sent) => {
            const reply = answer(message);
            if (!reply) return; // MiniKit's own init message needs no answer
            sent.push(message);
            setTimeout(() => MiniKit.trigger(reply[0], reply[1]), 0);
          },
        },
      },
    },
  });
  expect(installMiniKit()).toBe(true);
});

beforeEach(() => {
  sent.length = 0;
});

describe("inside World App", () => {
  it("is detected", () => {
    expect(isInWorldApp()).toBe(true);
  });

  it("walletAuth asks World App to sign a SIWE message with the API's nonce and statement", async () => {
    answer = () => [ResponseEvent.MiniAppWalletAuth, { status: "success", version: 2, address: USER.toLowerCase(), message: "siwe", signature: "0xabcd" }];
    const result = await walletAuth({ nonce: "n0nce12345", statement: "Claim ORO daily on the chain." });
    expect(result).toEqual({ address: USER, message: "siwe", signature: "0xabcd" });
    expect(sent[0]?.command).toBe("wallet-auth");
    const siwe = String(sent[0]?.payload.siweMessage);
    expect(siwe).toContain("Nonce: n0nce12345");
    expect(siwe).toContain("Claim ORO daily on the chain.");
  });

  it("walletAuth refuses a malformed nonce before asking the wallet", async () => {
    answer = () => null;
    await expect(walletAuth({ nonce: "short", statement: "x" })).rejects.toMatchObject({ code: "invalid_nonce" });
    expect(sent).toHaveLength(0);
  });

  it("sendTransaction sends the mint, encoded from the generated ABI, to World Chain (480)", async () => {
    answer = () => [ResponseEvent.MiniAppSendTransaction, { status: "success", version: 2, userOpHash: "0xfeed", from: USER, network: "worldchain", timestamp: "t" }];
    const verification = devVerification();
    const call = buildMintCall(verification, USER);
    const result = await sendTransaction(call);
    expect(result).toEqual({ id: "0xfeed", via: "world-app" });
    expect(sent[0]?.command).toBe("send-transaction");
    expect(sent[0]?.payload.chainId).toBe(480);
    const [transaction] = sent[0]?.payload.transactions as { to: string; data: Hex }[];
    expect(transaction?.to).toBe(call.to);
    const decoded = decodeFunctionData({ abi: oroAbi, data: transaction?.data ?? "0x" });
    expect(decoded.functionName).toBe("mint");
    expect(decoded.args).toEqual([verification.merkleRoot, verification.nullifierHash, verification.proof, USER]);
  });

  it("a refused transaction is a typed user rejection", async () => {
    answer = () => [ResponseEvent.MiniAppSendTransaction, { status: "error", version: 2, error_code: "user_rejected" }];
    const error = await sendTransaction(buildMintCall(devVerification(), USER)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorldAppError);
    expect(isUserRejection(error)).toBe(true);
  });

  it("requestPermission: granted, then already requested", async () => {
    answer = () => [ResponseEvent.MiniAppRequestPermission, { status: "success", version: 1, permission: "notifications", timestamp: "t" }];
    expect(await requestNotificationPermission()).toBe("granted");
    expect(sent[0]?.payload).toEqual({ permission: "notifications" });
    answer = () => [ResponseEvent.MiniAppRequestPermission, { status: "error", version: 1, error_code: "already_requested", description: "" }];
    expect(await requestNotificationPermission()).toBe("already_requested");
  });

  it("getPermissions reads the notification permission", async () => {
    answer = () => [ResponseEvent.MiniAppGetPermissions, { status: "success", version: 1, permissions: { notifications: true }, timestamp: "t" }];
    expect(await getPermissions()).toEqual({ notifications: true });
  });

  it("share hands the text and link to World App", async () => {
    answer = () => [ResponseEvent.MiniAppShare, { status: "success", version: 1, shared_files_count: 0, timestamp: "t" }];
    await share({ text: "Claim ORO with me", url: "https://example.org/?referralCode=ABCD2345" });
    expect(sent[0]?.command).toBe("share");
    expect(sent[0]?.payload).toMatchObject({ text: "Claim ORO with me", url: "https://example.org/?referralCode=ABCD2345" });
  });
});

describe("World ID legacy proof", () => {
  it("decodes the ABI-encoded proof to the uint256[8] the router takes", () => {
    const proof = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 2n ** 255n] as const;
    expect(decodeLegacyProof(encodeAbiParameters([{ type: "uint256[8]" }], [proof]))).toEqual(proof);
  });
  it("rejects a proof that is not eight field elements", () => {
    expect(() => decodeLegacyProof("0x1234")).toThrow();
  });
});
