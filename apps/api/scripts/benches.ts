// pnpm --filter @oro/api bench [--smoke]: the API's benchmarks in turn, each with the same arguments: the hot
// routes against a bare Fastify route (bench.ts), what an attacker's probe costs (bench-probe.ts), a million reminders through two replicas (bench-reminders.ts), then
// the hot routes' latency from 10,000 to 2,000,000 users (bench-size.ts).
import { spawnSync } from "node:child_process";
import { API_ROOT } from "./paths.js";

let failed = false;
for (const script of ["scripts/bench.ts", "scripts/bench-probe.ts", "scripts/bench-reminders.ts", "scripts/bench-size.ts"]) {
  const run = spawnSync(process.execPath, ["--import", "tsx", script, ...process.argv.slice(2)], { cwd: API_ROOT, stdio: "inherit" });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
