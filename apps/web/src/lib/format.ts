import { ORO_DECIMALS } from "@oro/clients";
import { formatUnits } from "viem";

/** What the header shows when the balance cannot be read. */
export const BALANCE_UNAVAILABLE = "--";
const MIN_SHOWN = 0.01;

/** Wei to a decimal number for display only (money stays bigint everywhere else). */
function toOro(wei: bigint): number {
  return Number(formatUnits(wei, ORO_DECIMALS));
}

/** Drops digits past `digits` decimals instead of rounding, so a balance is never shown higher than it is. */
function truncate(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.floor(value * factor + 1e-9) / factor;
}

/**
 * The header balance: 18 decimals, abbreviated (1.23K, 4.5M), at most 2 decimals. A positive balance below 0.01
 * shows as "<0.01" rather than as 0; a failed read shows "--".
 */
export function formatOroBalance(wei: bigint | null | undefined, locale: string): string {
  if (wei == null) return BALANCE_UNAVAILABLE;
  const value = toOro(wei);
  if (value === 0) return new Intl.NumberFormat(locale).format(0);
  if (value < MIN_SHOWN) return `<${new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(MIN_SHOWN)}`;
  if (value < 1000) return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(truncate(value, 2));
  return new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 2 }).format(value);
}

/** The amount just claimed: up to 1 decimal (0.5, 1, 2.5). */
export function formatClaimAmount(wei: bigint, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(truncate(toOro(wei), 1));
}

export interface CountdownParts {
  days: number;
  /** HH:MM:SS of what is left after the whole days. */
  clock: string;
}

/** Time left until `targetSeconds` as whole days plus HH:MM:SS; never negative. */
export function countdownParts(targetSeconds: number, nowSeconds: number): CountdownParts {
  const left = Math.max(0, Math.floor(targetSeconds - nowSeconds));
  const days = Math.floor(left / 86_400);
  const hours = Math.floor((left % 86_400) / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = left % 60;
  const pad = (value: number) => String(value).padStart(2, "0");
  return { days, clock: `${pad(hours)}:${pad(minutes)}:${pad(seconds)}` };
}

export function formatUsd(value: number, locale: string): string {
  const digits = value !== 0 && Math.abs(value) < 1 ? 4 : 2;
  return new Intl.NumberFormat(locale, { style: "currency", currency: "USD", maximumFractionDigits: digits }).format(value);
}

export function formatPercentChange(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(value) + "%";
}
