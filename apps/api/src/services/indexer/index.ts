/** The indexer feature as other features see it: its HTTP client and the per-request deadline for its calls. */
export * from "./client.js";
export * from "./deadline.js";
export * from "./readiness.js";
