import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every TypeScript file under `folder` (relative to the API's root). */
function sourcesUnder(folder: string): string[] {
  return readdirSync(path.join(apiRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .map((file) => path.join(apiRoot, folder, file));
}

export interface TranspiledApi {
  /** The JavaScript of a source file, e.g. `scripts/polls.ts` → its `.js` in the folder. */
  file(source: string): string;
  remove(): void;
}

/**
 * The API as the production image runs it (deploy/Dockerfile): each source file transpiled to JavaScript by esbuild,
 * file by file, beside copies of prisma/ and assets/. The benches' servers and the suites that start dozens of
 * processes (the operator's commands, a crashed server) start them from it: node then compiles nothing, half the CPU
 * of tsx on every start, and a bench measures the code production runs. The folder is under node_modules/.cache, so
 * that the API's packages resolve from it; `remove` deletes it.
 */
export async function transpileApi(): Promise<TranspiledApi> {
  const parent = path.join(apiRoot, "node_modules", ".cache");
  mkdirSync(parent, { recursive: true });
  const folder = mkdtempSync(path.join(parent, "oro-api-js-"));
  await build({
    entryPoints: [...sourcesUnder("src"), ...sourcesUnder("scripts")],
    outdir: folder,
    outbase: apiRoot,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
  for (const kept of ["prisma", "assets", "package.json"]) cpSync(path.join(apiRoot, kept), path.join(folder, kept), { recursive: true });
  return {
    file: (source) => path.join(folder, source.replace(/\.ts$/, ".js")),
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
