// The package is "type": "module"; the CommonJS build (for Hardhat's ts-node) needs its own marker.
import { writeFileSync } from "node:fs";
writeFileSync(new URL("../dist/cjs/package.json", import.meta.url), JSON.stringify({ type: "commonjs" }) + "\n");
