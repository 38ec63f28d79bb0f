import { z } from "zod";

export const worldIdRequestResponseSchema = z
  .object({
    rp_id: z.string().meta({ description: "The relying party (rp_...)" }),
    nonce: z.string(),
    created_at: z.number().int().meta({ description: "Unix seconds" }),
    expires_at: z.number().int().meta({ description: "Unix seconds" }),
    signature: z.string().meta({ description: "The relying party's signature over nonce, times and action" }),
    action: z.string().meta({ description: "The World ID action the signature covers" }),
  })
  .meta({ id: "WorldIdRequest", description: "IDKit 4's rp_context for the claim action" });
