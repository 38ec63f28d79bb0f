import { MiniKit } from "@worldcoin/minikit-js";
import { getDevWallet } from "./fallback";
import { toWorldAppError } from "./errors";
import type { AppPermissions } from "./types/get-permissions";

export type * from "./types/get-permissions";

/** The permissions the user gave this mini app (MiniKit `getPermissions`). */
export async function getPermissions(): Promise<AppPermissions> {
  try {
    const result = await MiniKit.getPermissions({
      fallback: async () => ({ permissions: (await getDevWallet("getPermissions")).permissions() }),
    });
    const permissions: Record<string, unknown> = result.data.permissions;
    return { notifications: permissions.notifications === true };
  } catch (error) {
    throw toWorldAppError("getPermissions", error);
  }
}
