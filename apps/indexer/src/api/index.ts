import { Hono } from "hono";
import { db } from "ponder:api";
import schema from "ponder:schema";
import { client, graphql } from "ponder";
import { graphqlSchema } from "./graphql-schema";
import { readyGate } from "./ready-gate";
import { humans } from "./routes/humans";
import { indexingHealth } from "./routes/indexing-health";
import { mints } from "./routes/mints";
import { referralPayouts } from "./routes/referral-payouts";
import { statsRoutes } from "./routes/stats";
import { streaks } from "./routes/streaks";
import { worldId } from "./routes/world-id";

// Ponder itself serves /health, /ready, /status and /metrics; /health/indexing also says whether indexing keeps up.
const app = new Hono();

app.route("/health/indexing", indexingHealth);

app.use("/sql/*", client({ db, schema }));
app.use("/graphql", graphql({ db, schema: graphqlSchema }));

const routes = { "/streaks": streaks, "/stats": statsRoutes, "/humans": humans, "/referral-payouts": referralPayouts, "/mints": mints, "/world-id": worldId };
for (const [path, route] of Object.entries(routes)) {
  // Answers from a backfill in progress would be partial: 503 until Ponder is ready.
  app.use(path, readyGate);
  app.use(`${path}/*`, readyGate);
  app.route(path, route);
}

export default app;
