// @vitest-environment node
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rehearsalBuild } from "./helpers/rehearsal-build";
import { INITIAL_JS_BUDGET_BYTES, formatBundleReport, measureBundle, type BundleSizes } from "../scripts/bundle-report";

/** A real production build (as `pnpm build` makes it), measured the same way the build prints it. */
let outDir = "";
let sizes: BundleSizes;
const js = () => readdirSync(join(outDir, "assets")).filter((file) => file.endsWith(".js"));
const read = (file: string) => readFileSync(join(outDir, "assets", file), "utf8");

beforeAll(async () => {
  outDir = await rehearsalBuild("oro-web-build-");
  sizes = measureBundle(outDir);
  console.log(formatBundleReport(sizes));
}, 120_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe("production bundle", () => {
  it("loads at most 150 KiB of gzip JavaScript for /", () => {
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
