import { nullifierHashToHex } from "@oro/clients";
import { isAddress, type Address, type Hex } from "viem";
import type { ChainCursor, ClaimsOrder } from "../api/types";

/** A parsed request parameter, or the one-line reason it was refused (answered with 400). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Claims listing: how many claims a page holds. */
export const CLAIMS_LIMIT = { min: 1, max: 100, default: 10 } as const;

/** Following mints or payouts in chain order: how many a page holds. */
export const FOLLOW_LIMIT = { min: 1, max: 1_000, default: 1_000 } as const;

type LimitBounds = { min: number; max: number; default: number };

const UINT256_MAX = 2n ** 256n - 1n;

/** A 20-byte 0x address in any letter case (a mixed-case one must carry a valid checksum), lower-cased. */
export function parseAddress(raw: string): Parsed<Address> {
  const candidate: string = raw;
  if (!isAddress(candidate, { strict: false })) {
    return { ok: false, error: `"${raw}" is not an address: expected 0x followed by 40 hexadecimal digits` };
  }
  if (raw !== raw.toLowerCase() && raw.slice(2) !== raw.slice(2).toUpperCase() && !isAddress(raw, { strict: true })) {
    return { ok: false, error: `"${raw}" has an invalid EIP-55 checksum` };
  }
  return { ok: true, value: raw.toLowerCase() as Address };
}

/** `limit` of a listing: an integer within `bounds` (the claims listing's 1 to 100 unless told); absent means its default. */
export function parseLimit(raw: string | undefined, bounds: LimitBounds = CLAIMS_LIMIT): Parsed<number> {
  if (raw === undefined || raw === "") return { ok: true, value: bounds.default };
  if (!/^\d+$/.test(raw)) return { ok: false, error: `limit must be an integer from ${bounds.min} to ${bounds.max}` };
  const limit = Number(raw);
  if (limit < bounds.min || limit > bounds.max) {
    return { ok: false, error: `limit must be an integer from ${bounds.min} to ${bounds.max}, got ${raw}` };
  }
  return { ok: true, value: limit };
}

/** `after` of a listing in chain order: a cursor from an earlier answer (digits); absent means from the first event. */
export function parseCursor(raw: string | undefined): Parsed<ChainCursor | null> {
  if (raw === undefined || raw === "") return { ok: true, value: null };
  if (!/^\d{1,100}$/.test(raw)) return { ok: false, error: `after must be the cursor of an earlier answer (digits), got "${raw.slice(0, 120)}"` };
  return { ok: true, value: raw };
}

/** `order` of the claims listing: `newest` or `oldest`; absent means newest. */
export function parseOrder(raw: string | undefined): Parsed<ClaimsOrder> {
  if (raw === undefined || raw === "" || raw === "newest") return { ok: true, value: "newest" };
  if (raw === "oldest") return { ok: true, value: "oldest" };
  return { ok: false, error: `order must be "newest" or "oldest", got "${raw}"` };
}

/**
 * A World ID nullifier hash, as World ID hands it out (0x hex) or as the contract's uint256 (decimal),
 * normalised to 0x plus 64 lower-case hex digits, the form the indexer stores.
 */
export function parseNullifierHash(raw: string): Parsed<Hex> {
  let value: bigint;
  if (/^0x[0-9a-fA-F]{1,64}$/.test(raw) || /^\d{1,78}$/.test(raw)) {
    value = BigInt(raw);
  } else {
    return { ok: false, error: `"${raw}" is not a nullifier hash: expected 0x hex (at most 64 digits) or a decimal uint256` };
  }
  if (value > UINT256_MAX) return { ok: false, error: `"${raw}" is larger than a uint256` };
  return { ok: true, value: nullifierHashToHex(value) };
}

/** The stored form of a nullifier hash (0x plus 64 lower-case hex digits), the API's too. */
export { nullifierHashToHex };

/** A voucher nonce: a decimal uint256. */
/** How many voucher nonces one batched lookup may ask about. */
export const NONCES_LIMIT = 100;

/** `nonces` of the batched lookup: 1 to NONCES_LIMIT decimal uint256s, comma-separated (repeats are asked once). */
export function parseNonces(raw: string | undefined): Parsed<bigint[]> {
  if (raw === undefined || raw === "") return { ok: false, error: `nonces is required: 1 to ${NONCES_LIMIT} decimal voucher nonces, comma-separated` };
  const parts = raw.split(",");
  if (parts.length > NONCES_LIMIT) return { ok: false, error: `nonces holds ${parts.length} nonces: at most ${NONCES_LIMIT} a request` };
  const values = new Set<bigint>();
  for (const part of parts) {
    const nonce = parseNonce(part);
    if (!nonce.ok) return { ok: false, error: `nonces: ${nonce.error}` };
    values.add(nonce.value);
  }
  return { ok: true, value: [...values] };
}

export function parseNonce(raw: string): Parsed<bigint> {
  if (!/^\d{1,78}$/.test(raw)) return { ok: false, error: `"${raw}" is not a voucher nonce: expected a decimal uint256` };
  const value = BigInt(raw);
  if (value > UINT256_MAX) return { ok: false, error: `"${raw}" is larger than a uint256` };
  return { ok: true, value };
}
