import { WORLD_ID_REQUEST_KINDS } from "@oro/clients";
import { z } from "zod";
import { userAddressQuery } from "./common.js";

const worldIdRequestKind = z.enum(WORLD_ID_REQUEST_KINDS).meta({
  description: "claim (the default): the 3.0 claim action; enrolment: World ID 4.0's enrolment action; session: a session proof (no action)",
});

/** `kind` may come in the query or the JSON body (not both, unless they agree); claim when neither says. */
export const worldIdRequestQuerySchema = userAddressQuery.extend({ kind: worldIdRequestKind.optional() });

/** Fastify reads a POST without a body as null: a request with none asks for the default. */
export const worldIdRequestBodySchema = z
  .object({ kind: worldIdRequestKind.optional() })
  .nullish()
  .meta({ description: "Optional: the kind of request, as the query may name it" });

export const worldIdRequestResponseSchema = z
  .object({
    rp_id: z.string().meta({ description: "The relying party (rp_...)" }),
    nonce: z.string(),
    created_at: z.number().int().meta({ description: "Unix seconds" }),
    expires_at: z.number().int().meta({ description: "Unix seconds" }),
    signature: z.string().meta({ description: "The relying party's signature over nonce, times and action" }),
    action: z.string().nullable().meta({ description: "The World ID action the signature covers; null for a session request" }),
  })
  .meta({ id: "WorldIdRequest", description: "IDKit 4's rp_context for a claim, an enrolment or a session proof" });

export const worldIdStatusResponseSchema = z
  .object({
    session: z
      .object({ idkitSessionId: z.string().meta({ description: "IDKit's whole session id (session_ + 128 hex digits), for IDKit.proveSession" }) })
      .nullable(),
    movedToWorldId4: z.boolean().meta({ description: "The wallet's human moved from World ID 3.0 (their 3.0 path is closed)" }),
    stale: z
      .literal(true)
      .optional()
      .meta({ description: "Present when the indexer did not answer: this is the last answer it gave for this wallet" }),
  })
  .meta({ id: "WorldIdStatus", description: "The World ID 4.0 session the chain records for the wallet's human" });

const UINT256_MAX = (1n << 256n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** A number the chain takes, as text: decimal digits, or 0x and hex digits; answered in decimal. */
function uintText(max: bigint, what: string) {
  const digits = max === UINT64_MAX ? 20 : 78;
  const hexDigits = max === UINT64_MAX ? 16 : 64;
  return z
    .string()
    .regex(new RegExp(`^(?:[0-9]{1,${digits}}|0x[0-9a-fA-F]{1,${hexDigits}})$`), { message: `must be ${what} in decimal or 0x hex digits`, abort: true })
    .refine((value) => BigInt(value) <= max, { message: `must be at most ${what === "a uint64" ? "2^64 - 1" : "2^256 - 1"}` })
    .transform((value) => BigInt(value).toString())
    .meta({ description: `${what}, as decimal (or 0x hex) text; answered in decimal` });
}

const uint256Text = uintText(UINT256_MAX, "a uint256");
const uint64Text = uintText(UINT64_MAX, "a uint64");

/** IDKit's whole session id: `session_`, the commitment and the OPRF seed (World's prefix byte 01), 64 hex digits each. */
export const idkitSessionIdSchema = z
  .string()
  .regex(/^session_[0-9a-f]{64}01[0-9a-f]{62}$/, { message: "must be session_ followed by 128 lower-case hex digits, the seed's first byte 01" })
  .meta({ description: "IDKit's session id (IDKit.proveSession takes it)" });

export const PENDING_ENROLMENT_KINDS = ["enrol", "move"] as const;

/** The pending proofs' shape, its numbers as `number` says (text in, decimal text out). */
function pendingEnrolmentShape(uint256: z.ZodType<string>, uint64: z.ZodType<string>) {
  return z.strictObject({
    kind: z.enum(PENDING_ENROLMENT_KINDS).meta({ description: "enrol: a human new to ORO under 4.0; move: a 3.0 human moving to 4.0" }),
    idkitSessionId: idkitSessionIdSchema,
    uniqueness: z
      .strictObject({
        nullifier: uint256,
        nonce: uint256,
        expiresAtMin: uint64,
        credentialGenesisIssuedAtMin: uint64,
        proof: z.array(uint256).length(5),
      })
      .meta({ description: "The uniqueness proof for the enrolment action as the contract's UniquenessProof takes it" }),
    worldId3: z
      .strictObject({ merkleRoot: uint256, nullifierHash: uint256, proof: z.array(uint256).length(8) })
      .nullable()
      .meta({ description: "A move's 3.0 proof (signal receiver ‖ session), once World App gave it (null until then: 3.0 proofs can be asked again); null for an enrolment" }),
  });
}

export const pendingEnrolmentBodySchema = pendingEnrolmentShape(uint256Text, uint64Text)
  .refine((pending) => pending.kind === "move" || pending.worldId3 === null, {
    path: ["worldId3"],
    message: "an enrolment carries no 3.0 proof",
  })
  .meta({
    description: "The proofs of an enrolment or a move that has not landed yet (World App discloses the uniqueness proof once)",
    example: {
      kind: "enrol",
      idkitSessionId: `session_${"1a".repeat(32)}01${"2b".repeat(31)}`,
      uniqueness: { nullifier: "12345", nonce: "0x2a", expiresAtMin: "1800000000", credentialGenesisIssuedAtMin: "1780272000", proof: ["1", "2", "3", "4", "5"] },
      worldId3: null,
    },
  });

export type PendingEnrolment = z.output<typeof pendingEnrolmentBodySchema>;

const decimal = z.string().regex(/^[0-9]{1,78}$/).meta({ description: "Decimal text" });

export const pendingEnrolmentResponseSchema = z
  .object({
    pending: pendingEnrolmentShape(decimal, decimal)
      .nullable()
      .meta({ description: "null when the wallet keeps none, or its uniqueness proof can no longer land" }),
  })
  .meta({ id: "PendingEnrolment", description: "The signed-in wallet's pending World ID 4.0 enrolment or move" });

export const pendingEnrolmentDeletedSchema = z
  .object({ deleted: z.boolean().meta({ description: "Whether the wallet kept one" }) })
  .meta({ id: "PendingEnrolmentDeleted" });
