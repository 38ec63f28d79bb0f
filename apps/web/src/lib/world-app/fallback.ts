import type { ComponentType } from "react";
import type { Address, Hex } from "viem";
import { WorldAppError } from "./errors";
import type { ContractCall } from "./types/send-transaction";
import type { SignedMessage } from "./types/sign-message";
import type { WorldId3Verification } from "./types/verify";
import type { WalletAuthRequest, WalletAuthSignature } from "./types/wallet-auth";

/** What the commands ask of the development wallet (src/lib/world-app/dev/dev-wallet.ts) outside World App. */
export interface DevWallet {
  accounts: readonly Address[];
  selectedIndex(): number;
  selectAccount(index: number): void;
  walletAuth(request: WalletAuthRequest): Promise<WalletAuthSignature>;
  signMessage(message: string): Promise<SignedMessage>;
  sendTransaction(call: ContractCall): Promise<Hex>;
  verify(signal: Address): WorldId3Verification;
  username(address: Address): string;
  permissions(): { notifications: boolean };
  requestNotificationPermission(): { status: "success"; permission: "notifications"; timestamp: string; version: number };
}

let loadDevWallet: (() => Promise<DevWallet>) | null = null;
let devWallet: Promise<DevWallet> | null = null;
let picker: ComponentType | null = null;

/**
 * Installs the development wallet and its account picker, once, at start-up, as MiniKit's setFallbackAdapter: main.tsx
 * does in a development build on the local chain (install.ts). The wallet loads when a command first needs it.
 */
export function installDevWallet(load: () => Promise<DevWallet>, accountPicker: ComponentType): void {
  loadDevWallet = load;
  devWallet = null;
  picker = accountPicker;
}

/** The development wallet's account picker, shown by the layout outside World App; null when none is installed. */
export function devWalletPicker(): ComponentType | null {
  return picker;
}

/** Outside World App, every command runs against the development wallet when one is installed. */
export function devFallbackAvailable(): boolean {
  return loadDevWallet !== null;
}

/** The installed development wallet; without one, the command fails with `not_in_world_app`. */
export function getDevWallet(command: string): Promise<DevWallet> {
  if (!loadDevWallet) return Promise.reject(new WorldAppError(command, "not_in_world_app", "Open ORO inside World App"));
  devWallet ??= loadDevWallet();
  return devWallet;
}
