import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** TARGETS.md: the JavaScript a first visit to / downloads, gzip. */
export const INITIAL_JS_BUDGET_BYTES = 150 * 1024;

export interface ChunkSize {
  file: string;
  gzipBytes: number;
}

export interface BundleSizes {
  /** Scripts index.html loads or preloads: what / needs before it can render. */
  initial: ChunkSize[];
  initialGzipBytes: number;
  /** Every other script, loaded on demand (IDKit, terms, debug, languages). */
  lazy: ChunkSize[];
  /** Other assets (IDKit's WASM, CSS), gzip. */
  assets: ChunkSize[];
}

const gzipSize = (path: string): number => gzipSync(readFileSync(path), { level: 9 }).length;

export function measureBundle(outDir: string): BundleSizes {
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const referenced = new Set(
    [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/?([^"]+\.js)"/g)].map((match) => match[1] ?? ""),
  );
  const assetsDir = join(outDir, "assets");
  const files = readdirSync(assetsDir).map((name) => `assets/${name}`);
  const size = (file: string): ChunkSize => ({ file, gzipBytes: gzipSize(join(outDir, file)) });
  const initial = files.filter((file) => referenced.has(file)).map(size);
  const lazy = files.filter((file) => file.endsWith(".js") && !referenced.has(file)).map(size);
  const assets = files.filter((file) => !file.endsWith(".js")).map(size);
  const bySize = (a: ChunkSize, b: ChunkSize) => b.gzipBytes - a.gzipBytes;
  return {
    initial: initial.sort(bySize),
    initialGzipBytes: initial.reduce((sum, chunk) => sum + chunk.gzipBytes, 0),
    lazy: lazy.sort(bySize),
    assets: assets.sort(bySize),
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function formatBundleReport(sizes: BundleSizes): string {
  const rows = (chunks: ChunkSize[]) => chunks.map((chunk) => `    ${kib(chunk.gzipBytes).padStart(10)}  ${chunk.file}`);
  const verdict = sizes.initialGzipBytes <= INITIAL_JS_BUDGET_BYTES ? "within" : "OVER";
  return [
    `initial JS for / (gzip): ${kib(sizes.initialGzipBytes)}, ${verdict} the budget of ${kib(INITIAL_JS_BUDGET_BYTES)}`,
    ...rows(sizes.initial),
    "loaded on demand (gzip):",
    ...rows(sizes.lazy),
    "other assets (gzip):",
    ...rows(sizes.assets),
  ].join("\n");
}

/** Prints the gzip sizes of the initial and the on-demand scripts after every production build. */
export function bundleReport(): Plugin {
  let outDir = "dist";
  let root = process.cwd();
  return {
    name: "oro-bundle-report",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
      root = config.root;
    },
    closeBundle() {
      const dir = outDir.startsWith("/") ? outDir : join(root, outDir);
      console.log(`\n${formatBundleReport(measureBundle(dir))}\n`);
    },
  };
}
