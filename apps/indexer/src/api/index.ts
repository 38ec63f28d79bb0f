import { Hono } from "hono";
import { db } from "ponder:api";
import schema from "ponder:schema";
import { client, graphql } from "ponder";
import { readyGate } from "./ready-gate";
import { humans } from "./routes/humans";
import { referralPayouts } from "./routes/referral-payouts";
import { statsRoutes } from "./routes/stats";
import { streaks } from "./routes/streaks";

// Ponder itself serves /health, /ready, /status and /metrics.
const app = new Hono();

app.use("/sql/*", client({ db, schema }));
app.use("/graphql", graphql({ db, schema }));

// Answers from a backfill in progress would be partial: 503 until Ponder is ready.
for (const path of ["/streaks/*", "/stats", "/stats/*", "/humans/*", "/referral-payouts/*"]) app.use(path, readyGate);

app.route("/streaks", streaks);
app.route("/stats", statsRoutes);
app.route("/humans", humans);
app.route("/referral-payouts", referralPayouts);

export default app;
