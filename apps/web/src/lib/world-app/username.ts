import { MiniKit } from "@worldcoin/minikit-js";
import type { Address } from "viem";
import { isInWorldApp } from "./install";
import { devFallbackAvailable, getDevWallet } from "./fallback";

/** The World App username of an address (MiniKit's username service); null when it has none or cannot tell. */
export async function getUsername(address: Address): Promise<string | null> {
  if (!isInWorldApp()) {
    return devFallbackAvailable() ? (await getDevWallet("username")).username(address) : null;
  }
  if (MiniKit.user.walletAddress?.toLowerCase() === address.toLowerCase() && MiniKit.user.username) {
    return MiniKit.user.username;
  }
  try {
    return (await MiniKit.getUserByAddress(address)).username ?? null;
  } catch {
    return null;
  }
}
