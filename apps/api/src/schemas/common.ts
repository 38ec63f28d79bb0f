import { EXAMPLE_WALLET_ADDRESS } from "@oro/clients";
import { isAddress } from "viem";
import { z } from "zod";
import { PaymentType } from "../generated/prisma/enums.js";
import { API_ERROR_CODES } from "../lib/errors.js";

/** A 0x address in any letter case (mixed case must carry a valid EIP-55 checksum), lower-cased. */
export const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { message: "must be 0x followed by 40 hexadecimal digits" })
  .refine((value) => value === value.toLowerCase() || value.slice(2) === value.slice(2).toUpperCase() || isAddress(value), {
    message: "has an invalid EIP-55 checksum",
  })
  .refine((value) => !/^0x0{40}$/.test(value), { message: "is the zero address, which is nobody's wallet" })
  .transform((value) => value.toLowerCase() as `0x${string}`)
  .meta({ description: "Wallet address (0x + 40 hex digits)", example: EXAMPLE_WALLET_ADDRESS });

/**
 * Text as people type it: no control characters (a NUL reaches PostgreSQL, which refuses it; the others have
 * no place in a name or a code).
 */
export const NO_CONTROL_CHARACTERS = /^\P{Cc}*$/u;
/** The same, with line feeds (a sign-in message is several lines). */
export const NO_CONTROL_CHARACTERS_EXCEPT_NEWLINE = /^(?:\n|\P{Cc})*$/u;
export const controlCharacterMessage = { message: "must not contain control characters" };

/** A whole number in a query string, written in decimal digits only (not 1e1, 0x10 or " 5"). */
export function queryInteger(min: number, max: number) {
  return z.preprocess((value) => (typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value), z.number().int().min(min).max(max));
}

/** The query of routes that act for, or read about, one wallet. */
export const userAddressQuery = z.object({ userAddress: addressSchema });

export const weiSchema = z.string().regex(/^\d+$/).meta({ description: "An amount in wei (18 decimals) as a decimal string" });

export const hexSchema = z.string().regex(/^0x[0-9a-fA-F]*$/);

export const paymentTypeSchema = z.enum(PaymentType);

/** `true` / `false` in a query string. */
export const booleanQuery = z.enum(["true", "false"]).transform((value) => value === "true");

export const validationIssueSchema = z.object({
  field: z.string().meta({ description: "Where the problem is, e.g. querystring.userAddress" }),
  rule: z.string().meta({ description: "The rule that failed, e.g. invalid_format, too_small, invalid_type" }),
  message: z.string(),
});

/** Every answer that is not a success. */
export const errorResponseSchema = z
  .object({
    error: z.enum(API_ERROR_CODES).meta({ description: "Stable machine-readable code, e.g. VALIDATION_ERROR or REFERRAL_CODE_NOT_FOUND" }),
    message: z.string(),
    issues: z.array(validationIssueSchema).optional(),
  })
  .meta({ id: "ErrorResponse" });

export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** The error answers a route declares, by status code. */
export function errorResponses<const Codes extends readonly number[]>(...codes: Codes) {
  return Object.fromEntries(codes.map((code) => [code, errorResponseSchema])) as Record<Codes[number], typeof errorResponseSchema>;
}

/** Routes that act for one user accept the session as a bearer token or as the cookie. */
export const sessionSecurity: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];
