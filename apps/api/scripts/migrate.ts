// pnpm db:migrate: applies prisma/migrations to the configured database (DATABASE_URL, else the embedded
// PGlite data dir) and records them in _prisma_migrations.
import { openDatabase } from "../src/db/database.js";
import { loadConfig } from "../src/env.js";

const config = loadConfig();
const database = await openDatabase(config.database);
try {
  const result = await database.migrate();
  for (const name of result.applied) console.log(`applied ${name}`);
  console.log(`${result.applied.length} applied, ${result.alreadyApplied.length} already applied (${database.kind})`);
} finally {
  await database.close();
}
