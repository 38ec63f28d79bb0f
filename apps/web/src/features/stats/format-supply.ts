import { ORO_DECIMALS } from "@oro/clients";
import { formatUnits } from "viem";

/** A token amount in full (grouped, at most 2 decimals, never rounded up): the supply is shown to the unit. */
export function formatOroAmount(wei: bigint, locale: string): string {
  const [whole = "0", fraction = ""] = formatUnits(wei, ORO_DECIMALS).split(".");
  const cents = fraction.slice(0, 2).padEnd(2, "0");
  const grouped = new Intl.NumberFormat(locale).format(BigInt(whole));
  if (cents === "00") return grouped;
  const separator = new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === "decimal")?.value ?? ".";
  return `${grouped}${separator}${cents.replace(/0$/, "")}`;
}
