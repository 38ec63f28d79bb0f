import { buildReferralMessage } from "@oro/clients";
import { MiniKit } from "@worldcoin/minikit-js";
import { COMMAND_VERSIONS, ResponseEvent } from "@worldcoin/minikit-js/commands";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isUserRejection, WorldAppError } from "../src/lib/world-app/errors";
import { installMiniKit } from "../src/lib/world-app/install";
import { signMessage } from "../src/lib/world-app/sign-message";
import { USER } from "./fakes";

/** World App stood in for as in world-app.test.ts: commands arrive on postMessage, answers go back by trigger. */
interface Sent {
  command: string;
  payload: Record<string, unknown>;
}
const sent: Sent[] = [];
let answer: (message: Sent) => unknown = () => null;

beforeAll(() => {
  Object.assign(window, {
    WorldApp: {
      world_app_version: 4_000_000,
      device_os: "ios",
      is_optional_analytics: false,
      supported_commands: Object.entries(COMMAND_VERSIONS).map(([name, version]) => ({ name, supported_versions: [version] })),
      safe_area_insets: { top: 0, right: 0, bottom: 0, left: 0 },
    },
    webkit: {
      messageHandlers: {
        minikit: {
          postMessage: (message: Sent) => {
            const reply = answer(message);
            if (!reply) return;
            sent.push(message);
            setTimeout(() => MiniKit.trigger(ResponseEvent.MiniAppSignMessage, reply), 0);
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

describe("signMessage (MiniKit sign-message)", () => {
  const message = buildReferralMessage({ referralCode: "abcd2345", address: USER, nonce: "InviteNonce1234" });

  it("asks World App to sign the invite message and returns the checksummed address and the signature", async () => {
    answer = () => ({ status: "success", version: 1, address: USER.toLowerCase(), signature: "0xabcdef" });
    await expect(signMessage(message)).resolves.toEqual({ address: USER, signature: "0xabcdef" });
    expect(sent[0]?.command).toBe("sign-message");
    expect(sent[0]?.payload.message).toBe(message);
    expect(message).toContain("I accept the invite code ABCD2345.");
  });

  it("a refusal in the wallet is a typed user rejection", async () => {
    answer = () => ({ status: "error", version: 1, error_code: "user_rejected" });
    const error = await signMessage(message).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorldAppError);
    expect(isUserRejection(error)).toBe(true);
  });

  it("refuses an empty message before asking the wallet", async () => {
    answer = () => ({ status: "success", version: 1, address: USER, signature: "0x1" });
    await expect(signMessage("  ")).rejects.toMatchObject({ code: "invalid_message" });
    expect(sent).toHaveLength(0);
  });
});
