import { buildApp } from "./app.js";
import { unconnectedDatabase } from "./db/database.js";
import { loadConfig } from "./env.js";

/**
 * The OpenAPI document of the API, built offline: the app is assembled with the development profile and a
 * database client that never connects, made ready, and asked for its document. Deterministic, so the
 * committed openapi.json (and the typed client generated from it) can be checked for staleness.
 */
export async function renderOpenApiDocument(): Promise<string> {
  const config = loadConfig({ NODE_ENV: "development", WORKERS_ENABLED: "false", LOG_LEVEL: "silent" });
  const app = await buildApp({ config, database: unconnectedDatabase(), logger: false });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
  }
}
