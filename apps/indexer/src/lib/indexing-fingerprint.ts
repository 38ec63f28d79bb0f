import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * What decides the rows the indexer writes: the contracts it indexes (ABIs, addresses, start blocks), its tables
 * (`ponder.schema.ts`) and its indexing code (every file under `src/` but the HTTP API in `src/api/`). Ponder
 * will not reuse a schema that `ponder start` filled with another build (its build id hashes these same
 * inputs), so the schema's name carries this fingerprint: a deploy that changes how rows are made indexes into a
 * new schema from the start block, instead of refusing to start. An HTTP API change keeps the schema.
 */
export interface IndexingInputs {
  contracts: unknown;
  /** Path (relative to the package, `/`-separated) → contents. */
  files: Record<string, string>;
}

/** 6 hex digits of a SHA-256 over the inputs (a collision between two successive builds is one in 16 million). */
export function indexingFingerprint({ contracts, files }: IndexingInputs): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(contracts, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)));
  for (const name of Object.keys(files).sort()) hash.update(`\0${name}\0${files[name]}`);
  return hash.digest("hex").slice(0, 6);
}

/** The package's files that decide the indexed rows (see IndexingInputs). */
export function indexingFiles(packageDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const add = (relative: string) => {
    files[relative.split(path.sep).join("/")] = readFileSync(path.join(packageDir, relative), "utf8");
  };
  add("ponder.schema.ts");
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(packageDir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (child !== path.join("src", "api")) walk(child);
      } else if (/\.(ts|js|json)$/.test(entry.name)) add(child);
    }
  };
  walk("src");
  return files;
}
