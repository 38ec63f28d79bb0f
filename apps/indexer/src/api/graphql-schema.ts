import schema from "ponder:schema";

/**
 * GraphQL's `human`: every human of either kind by human key, with their current state — the `human_state` view
 * (ponder.schema.ts) under the name `human`, in place of the `human` table, which holds a 4.0 human's identity but not
 * their state. Ponder's GraphQL lists a view (`humans(where: { nullifierHash: … })`) and has no lookup by key for one.
 */
export const graphqlSchema = {
  ...Object.fromEntries(Object.entries(schema).filter(([name]) => name !== "human" && name !== "humanState")),
  human: schema.humanState,
} as unknown as typeof schema;
