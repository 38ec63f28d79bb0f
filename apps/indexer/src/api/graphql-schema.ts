import schema from "ponder:schema";
import { onchainTable } from "ponder";

/**
 * GraphQL's `human`: every human of either kind by human key, with their current state — the `human_state` view
 * (ponder.schema.ts), declared here as a table of the same shape because Ponder's GraphQL gives a view only a list
 * (`humanStates`), and a table also the lookup by key that `human(nullifierHash: …)` is. The `human` table itself (a
 * 4.0 human's state is not on it) and the view's list are left out, so that one name means one thing.
 */
const humanOfEitherKind = onchainTable("human_state", (t) => ({
  nullifierHash: t.bigint().primaryKey(),
  numOfMints: t.integer().notNull(),
  firstMintedAt: t.int8({ mode: "number" }),
  lastMintedAt: t.int8({ mode: "number" }),
  currentStreak: t.integer().notNull(),
  longestStreak: t.integer().notNull(),
  lastReceiver: t.hex(),
  worldId4SessionId: t.bigint(),
}));

export const graphqlSchema = {
  ...Object.fromEntries(Object.entries(schema).filter(([name]) => name !== "human" && name !== "humanState")),
  human: humanOfEitherKind,
} as unknown as typeof schema;
