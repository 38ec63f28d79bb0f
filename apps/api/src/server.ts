import { buildApp } from "./app.js";
import { openDatabase } from "./db/database.js";
import { waitForMigrations } from "./db/migrate.js";
import { ConfigError, loadConfig, type Config } from "./env.js";

/**
 * Starts the API: config, database (migrated, or waited for until the release step migrated it: MIGRATE_ON_START),
 * listen, graceful shutdown.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ORO API cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase(config.database);
  if (config.migrations.onStart === "apply") await database.migrate();
  if (config.migrations.onStart === "wait") {
    await waitForMigrations((sql) => database.prisma.$queryRawUnsafe(sql), {
      waitMs: config.migrations.waitMs,
      onWait: (pending) => console.log(`ORO API: waiting for the release step to apply ${pending.length} migrations (${pending.join(", ")})`),
    });
  }
  const app = await buildApp({ config, database });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const graceSeconds = Math.round(config.shutdownGraceMs / 1000);
    app.log.info({ signal, graceSeconds }, "shutting down: no new requests; finishing requests and background work");
    const timer = setTimeout(() => {
      app.log.error(`shutdown took longer than ${graceSeconds} s: exiting`);
      process.exit(1);
    }, config.shutdownGraceMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "error while shutting down");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(`ORO API on http://${config.host}:${config.port}/api (docs at /api/docs, ${database.kind} database)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
