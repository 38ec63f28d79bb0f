/**
 * Fails the test run unless the product's contracts (contracts/*.sol and contracts/libraries; not the development
 * stand-ins under contracts/dev) have every line and every branch covered by the suite. Reads the coverage.json
 * that `hardhat coverage` (solidity-coverage, istanbul format) has just written, and names what is missed.
 */
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? "coverage.json";
const coverage = JSON.parse(readFileSync(file, "utf8"));
const product = (path) => /(^|\/)contracts\/(?!dev\/|interfaces\/)[^]*\.sol$/.test(path);

let lines = 0;
let branches = 0;
const missed = [];
for (const [path, data] of Object.entries(coverage)) {
  if (!product(path)) continue;
  const name = path.replace(/^.*?contracts\//, "contracts/");
  for (const [line, hits] of Object.entries(data.l ?? {})) {
    lines += 1;
    if (hits === 0) missed.push(`${name}:${line} line never run`);
  }
  for (const [id, counts] of Object.entries(data.b ?? {})) {
    const at = data.branchMap?.[id]?.line ?? data.branchMap?.[id]?.loc?.start?.line ?? "?";
    counts.forEach((hits, side) => {
      branches += 1;
      if (hits === 0) missed.push(`${name}:${at} branch ${side === 0 ? "taken" : "not taken"} never run`);
    });
  }
}
if (lines === 0) {
  console.error(`coverage gate: ${file} has no product contract in it`);
  process.exit(1);
}
if (missed.length > 0) {
  console.error(`coverage gate: ${missed.length} of ${lines} lines and ${branches} branches not covered:\n  ${missed.join("\n  ")}`);
  process.exit(1);
}
console.log(`coverage gate: 100% of ${lines} lines and ${branches} branches of the product contracts covered`);
