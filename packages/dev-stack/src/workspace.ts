import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo's root: the nearest folder above this package that holds pnpm-workspace.yaml. */
export function workspaceRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, "pnpm-workspace.yaml"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("@oro/dev-stack must run inside the ORO repository (no pnpm-workspace.yaml above it)");
    dir = parent;
  }
}

/**
 * Where each part of the product lives. The stack starts them by their own entry points (hardhat, tsx, vite),
 * so it depends on none of them as packages: the apps depend on this package for their tests.
 */
export function workspacePaths(root = workspaceRoot()) {
  return {
    root,
    contracts: path.join(root, "contracts"),
    indexer: path.join(root, "apps", "indexer"),
    api: path.join(root, "apps", "api"),
    web: path.join(root, "apps", "web"),
    simulator: path.join(root, "apps", "simulator"),
  };
}

/** A package's own binary (node_modules/.bin/<name>), started directly so that its PID is the process we stop. */
export function binOf(packageDir: string, name: string): string {
  return path.join(packageDir, "node_modules", ".bin", name);
}
