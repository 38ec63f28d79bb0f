import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "../src/db/migrate.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A dump of a migrated PGlite data folder (the "pglite" project): each test database starts from it. */
    migratedPgliteDump?: string;
  }
}

/**
 * One migrated PGlite database for the whole run, dumped to a file that test/helpers/database.ts starts each test
 * database from: creating a PGlite cluster costs about 3 s of CPU (a whole initdb), loading a dump 0.7 s, and the
 * suite opens a hundred databases.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const folder = mkdtempSync(path.join(tmpdir(), "oro-api-pglite-"));
  const pglite = await PGlite.create("memory://");
  try {
    await applyMigrations({
      query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
      exec: async (sql) => {
        await pglite.exec(sql);
      },
    });
    const file = path.join(folder, "migrated.tar");
    writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
    project.provide("migratedPgliteDump", file);
  } finally {
    await pglite.close();
  }
  return () => rmSync(folder, { recursive: true, force: true });
}
