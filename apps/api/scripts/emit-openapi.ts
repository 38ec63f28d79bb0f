// pnpm generate (second step): writes openapi.json, the API's OpenAPI 3 document, from which
// packages/clients generates its typed API client. With --check, fails if the file is stale instead.
import { readFile, writeFile } from "node:fs/promises";
import { OPENAPI_FILE } from "./paths.js";
import { renderOpenApiDocument } from "../src/openapi.js";

const text = await renderOpenApiDocument();
if (process.argv.includes("--check")) {
  const current = await readFile(OPENAPI_FILE, "utf8").catch(() => "");
  if (current !== text) {
    console.error("apps/api/openapi.json is stale: run pnpm generate and commit the result");
    process.exit(1);
  }
  console.log("openapi.json is up to date");
} else {
  await writeFile(OPENAPI_FILE, text);
  console.log("wrote apps/api/openapi.json");
}
