import { z } from "zod";
import { addressSchema, controlCharacterMessage, hexSchema, NO_CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS_EXCEPT_NEWLINE } from "./common.js";

export const nonceResponseSchema = z
  .object({
    nonce: z.string().regex(/^[A-Za-z0-9]{8,}$/).meta({ description: "Single-use, alphanumeric; put it in the SIWE message" }),
    expiresAt: z.iso.datetime(),
    statement: z.string().meta({ description: "The statement the SIWE message must carry" }),
  })
  .meta({ id: "SignInNonce" });

export const siweBodySchema = z.object({
  message: z.string().min(1).max(4_000).regex(NO_CONTROL_CHARACTERS_EXCEPT_NEWLINE, controlCharacterMessage).meta({ description: "The SIWE message from MiniKit walletAuth" }),
  signature: hexSchema.min(4).max(20_000),
  address: addressSchema,
  username: z.string().trim().min(1).max(64).regex(NO_CONTROL_CHARACTERS, controlCharacterMessage).optional().meta({ description: "World App username, when known" }),
});

export const userSchema = z
  .object({
    userId: z.string(),
    address: z.string(),
    username: z.string().nullable(),
  })
  .meta({ id: "User" });

export const sessionResponseSchema = z
  .object({
    token: z.string().meta({ description: "Bearer token; the same value is set as the httpOnly session cookie" }),
    expiresAt: z.iso.datetime(),
    user: userSchema,
  })
  .meta({ id: "Session" });

export const currentUserResponseSchema = z.object({ user: userSchema });

export const signOutResponseSchema = z.object({ signedOut: z.literal(true) });
