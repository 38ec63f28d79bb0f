/**
 * Summarises V8 CPU profiles (`.cpuprofile`, e.g. from `BENCH_CPU_PROF=<folder> pnpm bench`): self time per
 * package or file, largest first. `tsx scripts/support/cpu-profile.ts <file or folder> [top]`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [target = ".", topArg = "25"] = process.argv.slice(2);
const files = statSync(target).isDirectory()
  ? readdirSync(target).filter((name) => name.endsWith(".cpuprofile")).map((name) => path.join(target, name))
  : [target];

/** The package a script belongs to (node_modules/.pnpm/<pkg>/node_modules/<name>/...), else its path. */
function where(url: string): string {
  if (url === "") return "(native, GC, idle)";
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (match) return `${match[1]}/${(match[2] ?? "").split("/").slice(-2).join("/")}`;
  return url.replace(/^file:\/\//, "").replace(/^.*\/apps\/indexer\//, "");
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    if (!node) return;
    total += ms;
    const key = node.callFrame.functionName === "(idle)" ? "(idle)" : where(node.callFrame.url);
    self.set(key, (self.get(key) ?? 0) + ms);
    const fn = `${node.callFrame.functionName || "(anonymous)"} ${where(node.callFrame.url)}:${node.callFrame.lineNumber}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  });
  const top = Number(topArg);
  console.log(`${path.basename(file)}: ${(total / 1000).toFixed(1)} s sampled`);
  console.log("  by file:");
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${(ms / 1000).toFixed(2).padStart(7)} s ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
  console.log("  by function:");
  for (const [key, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${(ms / 1000).toFixed(2).padStart(7)} s ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
}
