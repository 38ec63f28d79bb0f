import type { ReferredUser } from "../../lib/api";

/** 0: claimable and not claimed, 1: claimable and claimed, 2: the rest (auto-paid). */
function group(entry: Pick<ReferredUser, "paymentType" | "hasClaimed">): number {
  if (entry.paymentType !== "claimable") return 2;
  return entry.hasClaimed ? 1 : 0;
}

/** Spec section 2's order: claimable unclaimed, then claimable claimed, then the others; newest update first in each. */
export function sortInvites<T extends Pick<ReferredUser, "paymentType" | "hasClaimed" | "updatedAt">>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => group(a) - group(b) || b.updatedAt.getTime() - a.updatedAt.getTime());
}
