// Fetches pnpm's own package from the npm registry into the folder given and checks it against the registry's
// published integrity (sha512): the build stage's package manager without installing npm (Debian's npm brings some
// three hundred packages). `node fetch-pnpm.mjs <version> <folder>`; its entry point is then <folder>/bin/pnpm.cjs.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const [version, folder] = process.argv.slice(2);
const registry = (process.env.npm_config_registry ?? "https://registry.npmjs.org").replace(/\/+$/, "");
const get = async (url) => {
  const answer = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  return answer;
};
const { dist } = await (await get(`${registry}/pnpm/${version}`)).json();
const tarball = Buffer.from(await (await get(dist.tarball)).arrayBuffer());
const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
if (integrity !== dist.integrity) throw new Error(`pnpm ${version}: integrity ${integrity} is not the registry's ${dist.integrity}`);
mkdirSync(folder, { recursive: true });
writeFileSync(path.join(folder, "pnpm.tgz"), tarball);
execFileSync("tar", ["-xzf", "pnpm.tgz", "--strip-components=1"], { cwd: folder });
console.log(`pnpm ${version} (${integrity.slice(0, 20)}…) in ${folder}`);
