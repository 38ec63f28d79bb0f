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
