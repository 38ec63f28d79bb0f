// @vitest-environment node
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIAL_JS_BUDGET_BYTES, formatBundleReport, measureBundle, type BundleSizes } from "../scripts/bundle-report";

/** A real production build (as `pnpm build` makes it), measured the same way the build prints it. */
const root = join(import.meta.dirname, "..");
let outDir = "";
let sizes: BundleSizes;
const js = () => readdirSync(join(outDir, "assets")).filter((file) => file.endsWith(".js"));
const read = (file: string) => readFileSync(join(outDir, "assets", file), "utf8");

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "oro-web-build-"));
  // Vitest runs with NODE_ENV=test, which would make Vite build with import.meta.env.DEV = true.
  // Until World Chain has a deployment, a production build is only allowed as a rehearsal on the local chain.
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
  sizes = measureBundle(outDir);
  console.log(formatBundleReport(sizes));
}, 120_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe("production bundle", () => {
  it("loads at most 160 KiB of gzip JavaScript for /", () => {
    expect(sizes.initial.length).toBeGreaterThan(0);
    expect(sizes.initialGzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });

  it("loads IDKit and its WASM only when the user verifies", () => {
    const initialFiles = new Set(sizes.initial.map((chunk) => chunk.file.replace("assets/", "")));
    const idkitChunks = js().filter((file) => read(file).includes("idkit_wasm_bg"));
    expect(idkitChunks.length).toBeGreaterThan(0);
    for (const file of idkitChunks) expect(initialFiles.has(file)).toBe(false);
    expect(sizes.assets.some((asset) => asset.file.endsWith(".wasm"))).toBe(true);
  });

  it("loads the terms and the debug page on demand", () => {
    const initialCode = sizes.initial.map((chunk) => read(chunk.file.replace("assets/", ""))).join("\n");
    expect(initialCode).not.toContain("terms.noAdvice");
    expect(initialCode).not.toContain("debug.inWorldApp");
    expect(js().some((file) => read(file).includes("terms.noAdvice"))).toBe(true);
  });

  it("never contains the development wallet", () => {
    for (const file of js()) {
      const code = read(file);
      expect(code.includes("test test test test test test test test test test test junk"), file).toBe(false);
      expect(code.includes("createDevWallet"), file).toBe(false);
    }
    expect(js().some((file) => /dev-wallet|DevWalletPicker/i.test(file))).toBe(false);
  });
});
