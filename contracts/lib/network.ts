import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { refuse } from "./refusal";

/** The first answer from the network's RPC, or a refusal naming the network when nothing answers there. */
export async function reachable<T>(hre: HardhatRuntimeEnvironment, ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    const url = "url" in hre.network.config ? hre.network.config.url : "the in-process network";
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    return refuse(`wrong network: nothing answers at ${url} (network "${hre.network.name}"): ${reason}`);
  }
}
