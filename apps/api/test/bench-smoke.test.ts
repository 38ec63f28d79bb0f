import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { API_ROOT } from "../scripts/paths.js";

// The throughput bench seeds PostgreSQL directly, so a schema change can break it without failing any other test
// (it did: a CHECK added by the per-human referral rules refused its seed). Its smoke size runs here.
// It runs once, in the "postgres" project (vitest.config.ts), which exists when DATABASE_URL is set.
const databaseUrl = process.env.DATABASE_URL;
const postgres = process.env.ORO_TEST_DATABASE === "postgres" && databaseUrl !== undefined;

/** Runs a bench script at its smoke size on this suite's PostgreSQL; its output. */
async function smokeRun(script: string): Promise<string> {
  // The suite's database prefix (test/helpers/database.ts) names the benches' databases too.
  const prefix = process.env.ORO_TEST_DATABASE_PREFIX;
  const args = ["--import", "tsx", script, "--smoke", ...(prefix ? ["--database-prefix", `${prefix}_bench`] : [])];
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, {
      cwd: API_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      timeout: 480_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    // What the bench printed says why it failed (its table, a figure marked NO); the error alone does not.
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${(error as Error).message.split("\n")[0]}\n--- stdout (end) ---\n${stdout.slice(-4_000)}\n--- stderr (end) ---\n${stderr.slice(-4_000)}`, { cause: error });
  }
}

describe.skipIf(!postgres)("the API benches at their smoke size", () => {
  it("seeds, measures every route against the ceiling and prints its table", async () => {
    const stdout = await smokeRun("scripts/bench.ts");
    expect(stdout).toMatch(/seeded 2,000 users, 500 payable referrals/);
    for (const route of ["GET /api/streaks/current (cached)", "GET /api/referrals/oro-earned (uncached)", "GET /api/erc20/token-price"]) {
      // req/s, p50, p99, then the API's CPU µs per request (a figure the machine's load moves much less).
      expect(stdout).toMatch(new RegExp(`\\| ${route.replace(/[()/]/g, "\\$&")} \\| \\d+ \\| \\d+ \\| \\d+ \\| \\d+\\.\\d \\|`));
    }
    expect(stdout).not.toMatch(/\d+ errors/);
  }, 540_000);

  it("measures what an attacker's probe costs: a flood of /api/ready, refused bearer tokens (scripts/bench-probe.ts --smoke)", async () => {
    const stdout = await smokeRun("scripts/bench-probe.ts");
    for (const row of ["GET /api/ready (flood)", "refused: random bearer tokens of the issued shape", "refused: malformed bearer tokens"]) {
      expect(stdout).toMatch(new RegExp(`\\| ${row.replace(/[()/]/g, "\\$&")} \\| \\d+ \\| \\d+ \\| \\d+ \\| \\d+\\.\\d \\|`));
    }
    // Readiness answered every request of the flood (its own budget is out of reach there).
    expect(stdout).toMatch(/\| GET \/api\/ready \(flood\) \| \d+ \| \d+ \| \d+ \| [\d.]+ \| 0 \|/);
  }, 540_000);

  it("sends every due reminder once through two replicas, one told to stop on the way, then one killed (scripts/bench-reminders.ts --smoke)", async () => {
    const stdout = await smokeRun("scripts/bench-reminders.ts");
    // One table a run: the replica told to stop (a deploy), then killed (a crash).
    const tables = stdout.split(/\n(?=3,000 reminders due at once)/).slice(1);
    expect(tables).toHaveLength(2);
    expect(tables[0]).toContain("one told to stop (SIGTERM) on the way");
    expect(tables[1]).toContain("one killed (SIGKILL) on the way");
    for (const table of tables) {
      // Every figure within its target; none twice, none recorded sent and lost, none refused, none ended otherwise.
      expect(table).not.toContain("| NO |");
      expect(table).toMatch(/\| arrived more than once \| 0 \| 0 \| yes \|/);
      expect(table).toMatch(/\| recorded sent, never arrived \(lost\) \| 0 \| 0 \| yes \|/);
      expect(table).toMatch(/\| requests refused by World \(4xx\) \| 0 \| 0 \| yes \|/);
      expect(table).toMatch(/\| jobs that ended otherwise \| 0 \| 0 \| yes \|/);
    }
    // Told to stop, a replica answers what it has out: every reminder is sent.
    expect(tables[0]).toMatch(/\| sent \(World answered[^|]*\| 3,000 of 3,000 \|/);
  }, 540_000);

  it("measures the hot routes at two sizes side by side (scripts/bench-size.ts --smoke)", async () => {
    const stdout = await smokeRun("scripts/bench-size.ts");
    expect(stdout).toMatch(/\| route \| 1 k users \| 2 k users \| target \| met \|/);
    for (const route of ["streaks/current (cached)", "streaks/current (uncached)", "oro-earned (uncached)", "oro-earned, the long-history referrer (second page)"]) {
      expect(stdout).toContain(`| ${route} |`);
    }
    expect(stdout).toMatch(/\| the long-history referrer's first answer, bytes \|/);
    expect(stdout).toMatch(/\| bare Fastify route \(ceiling\), same moment \| \d+ \(\d+\), [\d,]+ req\/s, \d+ µs \| \d+ \(\d+\)/);
    // Each latency cell carries the API's CPU per request beside it.
    expect(stdout).toMatch(/\| streaks\/current \(cached\) \| \d+ \(\d+\), [\d,]+ µs \| \d+ \(\d+\), [\d,]+ µs \|/);
    expect(stdout).toMatch(/\| load average \(1 min\), before and after \| [\d.]+, [\d.]+ \|/);
    // The same routes at the production rate (a fifth of it at this size), in a table of their own: each cell the p99
    // (p50), the answers a second and the API's CPU at that rate as a share of a core, flagged when they fell behind.
    expect(stdout).toContain("At the production rate (a fifth of it: smoke size)");
    expect(stdout).toMatch(/\| route \| rate, req\/s \| 1 k users \| 2 k users \| target \| met \|/);
    expect(stdout).toMatch(/\| streaks\/current \(cached\) \| 160 \| \d+ \(\d+\), [\d,]+\/s, \d+% of a core(, fell behind)? \| \d+ \(\d+\), [\d,]+\/s, \d+% of a core(, fell behind)? \| p99 < 25 ms at the rate \| (yes|no) \|/);
    expect(stdout).toMatch(/\| oro-earned \(uncached\) \| 80 \| \d+ \(\d+\), [\d,]+\/s/);
    // The followers through a backlog at each size: every pending referral its mints decide, every voucher recorded.
    expect(stdout).toMatch(/\| mints: mints\/s \(referrals decided\) \| [\d,]+ \(20 of 20 payable\) \| [\d,]+ \(20 of 20 payable\) \|/);
    expect(stdout).toMatch(/\| payouts: payouts\/s \(vouchers recorded paid\) \| [\d,]+ \(1,000 of 1,000\) \| [\d,]+ \(2,000 of 2,000\) \|/);
  }, 540_000);
});
