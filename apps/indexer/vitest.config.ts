import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const packageDir = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    // Ponder's virtual modules, for unit tests of the handlers: the schema as it is, and a registry that keeps each
    // indexing function so a test can run it (test/support/ponder-registry.ts).
    alias: {
      "ponder:registry": path.join(packageDir, "test/support/ponder-registry.ts"),
      "ponder:schema": path.join(packageDir, "ponder.schema.ts"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The integration suite starts a chain and Ponder twice; unit tests finish in milliseconds.
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
