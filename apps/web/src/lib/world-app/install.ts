import { MiniKit } from "@worldcoin/minikit-js";
import { env } from "../../env";

/** Connects to World App when the page runs inside it; a no-op in a plain browser. */
export function installMiniKit(): boolean {
  if (!MiniKit.isInWorldApp()) return false;
  return MiniKit.install(env.worldAppId).success;
}

export function isInWorldApp(): boolean {
  return MiniKit.isInWorldApp();
}

/** World App can make World ID 4.0 proofs here: it announces IDKit's verify command version 2. */
export function worldId4Available(): boolean {
  const commands = (window as { WorldApp?: { supported_commands?: { name: string; supported_versions?: number[] }[] } }).WorldApp?.supported_commands;
  return Array.isArray(commands) && commands.some((command) => command.name === "verify" && command.supported_versions?.includes(2) === true);
}
