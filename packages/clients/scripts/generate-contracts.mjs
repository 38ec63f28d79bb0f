// pnpm generate: writes src/generated/contracts.ts. With --check, fails if the file is stale instead.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OUTPUT_FILE, renderContracts } from "./contracts-codegen.mjs";

const text = renderContracts();
if (process.argv.includes("--check")) {
  const current = existsSync(OUTPUT_FILE) ? readFileSync(OUTPUT_FILE, "utf8") : "";
  if (current !== text) {
    console.error(`${path.relative(process.cwd(), OUTPUT_FILE)} is stale: run pnpm generate and commit the result`);
    process.exit(1);
  }
  console.log("generated contract clients are up to date");
} else {
  mkdirSync(path.dirname(OUTPUT_FILE), { recursive: true });
  writeFileSync(OUTPUT_FILE, text);
  console.log(`wrote ${path.relative(process.cwd(), OUTPUT_FILE)}`);
}
