import { MiniKit } from "@worldcoin/minikit-js";
import { getAddress, type Hex } from "viem";
import { getDevWallet } from "./fallback";
import { WorldAppError, toWorldAppError } from "./errors";
import type { WalletAuthRequest, WalletAuthSignature } from "./types/wallet-auth";

export type * from "./types/wallet-auth";

/** Asks the wallet to sign a SIWE message (MiniKit `walletAuth`); the API verifies it. */
export async function walletAuth(request: WalletAuthRequest): Promise<WalletAuthSignature> {
  if (!/^[A-Za-z0-9]{8,}$/.test(request.nonce)) throw new WorldAppError("walletAuth", "invalid_nonce");
  try {
    const result = await MiniKit.walletAuth({
      nonce: request.nonce,
      statement: request.statement,
      expirationTime: new Date(Date.now() + 10 * 60_000),
      fallback: async () => (await getDevWallet("walletAuth")).walletAuth(request),
    });
    const { address, message, signature } = result.data;
    return { address: getAddress(address), message, signature: signature as Hex };
  } catch (error) {
    throw toWorldAppError("walletAuth", error);
  }
}
