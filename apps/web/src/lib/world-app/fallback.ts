import { CHAIN_IDS } from "@oro/clients";
import { env, loadDevWallet } from "../../env";
import type { DevWallet } from "./dev/dev-wallet";
import { WorldAppError } from "./errors";

let devWallet: Promise<DevWallet> | null = null;

/**
 * Outside World App during development, every command runs against the development wallet on the local chain.
 * In a production build `loadDevWallet` is null: the commands then fail with `not_in_world_app`.
 */
export function devFallbackAvailable(): boolean {
  return loadDevWallet !== null && env.chainId === CHAIN_IDS.development;
}

export function getDevWallet(command: string): Promise<DevWallet> {
  if (!loadDevWallet || env.chainId !== CHAIN_IDS.development) {
    return Promise.reject(new WorldAppError(command, "not_in_world_app", "Open ORO inside World App"));
  }
  devWallet ??= loadDevWallet().then((module) =>
    module.createDevWallet({
      chainId: env.chainId,
      rpcUrl: env.rpcUrl,
      worldAppId: env.worldAppId,
      claimAction: env.claimAction,
    }),
  );
  return devWallet;
}
