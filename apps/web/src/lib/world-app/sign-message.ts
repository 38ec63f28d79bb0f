import { MiniKit } from "@worldcoin/minikit-js";
import { getAddress, type Hex } from "viem";
import { getDevWallet } from "./fallback";
import { WorldAppError, toWorldAppError } from "./errors";
import type { SignedMessage } from "./types/sign-message";

export type * from "./types/sign-message";

/** Asks the wallet to sign a text (MiniKit `signMessage`, EIP-191 personal_sign); the API checks the signature. */
export async function signMessage(message: string): Promise<SignedMessage> {
  if (message.trim() === "") throw new WorldAppError("signMessage", "invalid_message");
  try {
    const result = await MiniKit.signMessage({
      message,
      fallback: async () => (await getDevWallet("signMessage")).signMessage(message),
    });
    const { address, signature } = result.data;
    return { address: getAddress(address), signature: signature as Hex };
  } catch (error) {
    throw toWorldAppError("signMessage", error);
  }
}
