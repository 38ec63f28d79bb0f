// pnpm generate: writes src/generated/contracts.ts and src/generated/abis/*.ts. With --check, fails if any is
// stale instead.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OUTPUT_DIR, renderContracts } from "./contracts-codegen.mjs";

const files = Object.entries(renderContracts());
if (process.argv.includes("--check")) {
  const stale = files.filter(([name, text]) => {
    const file = path.join(OUTPUT_DIR, name);
    return !existsSync(file) || readFileSync(file, "utf8") !== text;
  });
  for (const [name] of stale) {
    console.error(`${path.relative(process.cwd(), path.join(OUTPUT_DIR, name))} is stale: run pnpm generate and commit the result`);
  }
  if (stale.length > 0) process.exit(1);
  console.log("generated contract clients are up to date");
} else {
  for (const [name, text] of files) {
    const file = path.join(OUTPUT_DIR, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}
