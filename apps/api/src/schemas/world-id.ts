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
