import { CHAIN_IDS } from "@oro/clients";
import { MiniKit } from "@worldcoin/minikit-js";
import type { Hex } from "viem";
import { getDevWallet } from "./fallback";
import { toWorldAppError } from "./errors";
import type { ContractCall, SentTransaction } from "./types/send-transaction";

export type * from "./types/send-transaction";

/**
 * Sends one contract call (MiniKit `sendTransaction`). World App only sends to World Chain (480); outside it, the
 * development wallet sends the same call to the local chain.
 */
export async function sendTransaction(call: ContractCall): Promise<SentTransaction> {
  try {
    const result = await MiniKit.sendTransaction({
      chainId: CHAIN_IDS.worldChain,
      transactions: [{ to: call.to, data: call.data }],
      fallback: async (): Promise<SentTransaction> => ({
        id: await (await getDevWallet("sendTransaction")).sendTransaction(call),
        via: "development",
      }),
    });
    if (result.executedWith === "fallback") return result.data;
    return { id: result.data.userOpHash as Hex, via: "world-app" };
  } catch (error) {
    throw toWorldAppError("sendTransaction", error);
  }
}
