// @vitest-environment node
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { productionBuildRefusal } from "../scripts/production-guard";

// `vite build` is what the web image runs: a production build for the development chain, or for a chain without
// an ORO deployment, fails with one line and no stack trace, unless it is an explicit rehearsal.
const root = join(import.meta.dirname, "..");
const outDir = mkdtempSync(join(tmpdir(), "oro-web-refused-"));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function viteBuild(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", ...env };
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, "node_modules", ".bin", "vite"), ["build", "--outDir", outDir], { cwd: root, env: childEnv });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

function refusalLines(stderr: string): string[] {
  // eslint-disable-next-line no-control-regex -- strip Vite's colours
  return stderr.replace(/\u001b\[[0-9;]*m/g, "").split("\n").filter((line) => line.trim() !== "" && line !== "error during build:");
}

describe("production web build", () => {
  it("refuses the development chain with one line", async () => {
    const { code, stderr } = await viteBuild({ VITE_CHAIN_ID: "31337" });
    expect(code).toBe(1);
    expect(refusalLines(stderr)).toEqual([
      "web build refused: VITE_CHAIN_ID=31337 is the development chain (mock World ID router, public keys); " +
        "build for World Chain (480), or set ORO_REHEARSAL=true for a local rehearsal",
    ]);
  }, 60_000);

  it("refuses World Chain (the default) while @oro/clients has no deployment there", async () => {
    const { code, stderr } = await viteBuild({});
    expect(code).toBe(1);
    const lines = refusalLines(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^web build refused: @oro\/clients has no ORO deployment for chain 480;/);
  }, 60_000);

  it("allows a rehearsal on the development chain, and World Chain once it is deployed", () => {
    expect(productionBuildRefusal({ VITE_CHAIN_ID: "31337", ORO_REHEARSAL: "true" })).toBeUndefined();
    expect(productionBuildRefusal({ VITE_CHAIN_ID: "480" }, { 480: {} })).toBeUndefined();
    expect(productionBuildRefusal({}, { 480: {} })).toBeUndefined();
    expect(productionBuildRefusal({ VITE_CHAIN_ID: "31337", ORO_REHEARSAL: "yes" })).toMatch(/development chain/);
    expect(productionBuildRefusal({ ORO_REHEARSAL: "true" })).toMatch(/no ORO deployment for chain 480; deploy the contracts there and run pnpm generate first$/);
  });
});
