import { zeroAddress, type Address } from "viem";
import type { NoteAnomaly } from "./anomalies";
import { boundedAmount } from "./event-values";

/** A Transfer as the ORO token emits it; from the zero address is a mint, to the zero address a burn. */
export interface TransferEvent {
  from: Address;
  to: Address;
  value: bigint;
}

/** One account's balance before and after a transfer. */
export interface BalanceChange {
  account: Address;
  before: bigint;
  after: bigint;
}

/**
 * Whether an account starts or stops being a holder (balance > 0) with this change: +1, -1 or 0.
 * A balance that drops to zero stops counting; one that rises from zero starts.
 */
export function holderDelta({ before, after }: Pick<BalanceChange, "before" | "after">): -1 | 0 | 1 {
  if (before === 0n && after > 0n) return 1;
  if (before > 0n && after === 0n) return -1;
  return 0;
}

/** How the total supply moves: up on a mint (from zero), down on a burn (to zero), unchanged otherwise. */
export function supplyDelta({ from, to, value }: TransferEvent): bigint {
  if (from === zeroAddress && to !== zeroAddress) return value;
  if (to === zeroAddress && from !== zeroAddress) return -value;
  return 0n;
}

/**
 * The balances a transfer changes, in the order to apply them, given a reader of current balances.
 * The zero address is never an account: it only creates and destroys supply. A transfer to oneself
 * debits and credits the same balance, leaving it as it was. The token never moves more than a balance nor above
 * 2^256 - 1; a transfer that would (events missed, or not the token's) is noted and the balance bounded.
 */
export function balanceChanges(transfer: TransferEvent, balanceOf: (account: Address) => bigint, note: NoteAnomaly): BalanceChange[] {
  const { from, to, value } = transfer;
  if (from === to) {
    if (from === zeroAddress) return [];
    const balance = balanceOf(from);
    if (balance < value) note("amount_out_of_range", `transfer of ${value} from ${from} to itself exceeds its balance ${balance}: balance kept`);
    return [{ account: from, before: balance, after: balance }];
  }
  const changes: BalanceChange[] = [];
  if (from !== zeroAddress) {
    const before = balanceOf(from);
    changes.push({ account: from, before, after: boundedAmount(before - value, `the balance of ${from}`, note) });
  }
  if (to !== zeroAddress) {
    const before = balanceOf(to);
    changes.push({ account: to, before, after: boundedAmount(before + value, `the balance of ${to}`, note) });
  }
  return changes;
}
