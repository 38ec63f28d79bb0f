import { ORO_DECIMALS } from "@oro/clients";
import { formatUnits } from "viem";

/** Share amounts: up to 2 fraction digits (spec section 9), cut rather than rounded up, per language. */
export function formatShareAmount(wei: bigint, locale: string): string {
  const [whole = "0", fraction = ""] = formatUnits(wei, ORO_DECIMALS).split(".");
  const cut = Number(`${whole}.${fraction.slice(0, 2) || "0"}`);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(cut);
}
