import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";

/**
 * A real production build (as `pnpm build` makes it) into a new temporary folder, returned. Vitest runs with
 * NODE_ENV=test, which would make Vite build with import.meta.env.DEV = true; and until World Chain has a
 * deployment, a production build is only allowed as a rehearsal on the local chain.
 */
export async function rehearsalBuild(prefix: string): Promise<string> {
  const root = join(import.meta.dirname, "..", "..");
  const outDir = mkdtempSync(join(tmpdir(), prefix));
  const saved = { NODE_ENV: process.env.NODE_ENV, ORO_REHEARSAL: process.env.ORO_REHEARSAL, VITE_CHAIN_ID: process.env.VITE_CHAIN_ID };
  Object.assign(process.env, { NODE_ENV: "production", ORO_REHEARSAL: "true", VITE_CHAIN_ID: "31337" });
  try {
    await build({ root, mode: "production", logLevel: "warn", build: { outDir, emptyOutDir: true } });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return outDir;
}
