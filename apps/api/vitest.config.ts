import { defineConfig } from "vitest/config";

// Every file runs on the embedded PGlite database. When DATABASE_URL is set (CI starts the machine's
// PostgreSQL), the files that touch a database run a second time on PostgreSQL, as project "postgres".
const databaseFree = ["test/env.test.ts", "test/deadline.test.ts", "test/ttl-cache.test.ts", "test/openapi.test.ts", "test/indexer-client.test.ts", "test/server.test.ts", "test/serializer.test.ts", "test/request-metrics.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Each file opens its own database (and some a local chain): two at a time on a 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "pglite", include: ["test/**/*.test.ts"], env: { ORO_TEST_DATABASE: "pglite" }, globalSetup: ["test/global-setup.ts"] },
      },
      ...(process.env.DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: ["test/**/*.test.ts"],
                exclude: databaseFree,
                env: { ORO_TEST_DATABASE: "postgres" },
              },
            },
          ]
        : []),
    ],
  },
});
