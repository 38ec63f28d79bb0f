// pnpm generate: writes src/generated/api.ts. With --check, fails if the file is stale instead.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { API_OUTPUT_FILE, renderApi } from "./api-codegen.mjs";

const text = await renderApi();
if (process.argv.includes("--check")) {
  const current = existsSync(API_OUTPUT_FILE) ? readFileSync(API_OUTPUT_FILE, "utf8") : "";
  if (current !== text) {
    console.error(`${path.relative(process.cwd(), API_OUTPUT_FILE)} is stale: run pnpm generate and commit the result`);
    process.exit(1);
  }
  console.log("generated API client types are up to date");
} else {
  mkdirSync(path.dirname(API_OUTPUT_FILE), { recursive: true });
  writeFileSync(API_OUTPUT_FILE, text);
  console.log(`wrote ${path.relative(process.cwd(), API_OUTPUT_FILE)}`);
}
