// Prisma CLI configuration. Only `prisma generate` runs here (see ../../shared ENVIRONMENT notes):
// migrations are SQL files applied by src/db/migrate.ts, so no datasource URL is needed.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
