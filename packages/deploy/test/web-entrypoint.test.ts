import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../src/compose.ts";

// deploy/web-entrypoint.sh, the web container's entrypoint: the per-address connection cap, then Caddy without the
// capability that set it. The rule is only ever installed in a network namespace of the test's own (unshare -n, as
// root: CI), never in this machine's; the rehearsal's drill 7 measures it in the real container.
const entrypoint = path.join(repoRoot, "deploy", "web-entrypoint.sh");
const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const hasTools = ["/usr/sbin/nft", "/usr/bin/setpriv", "/usr/bin/unshare"].every((file) => existsSync(file));
// The user the image runs Caddy as (Debian's caddy package makes it, on CI's machine too).
const hasCaddyUser = existsSync("/etc/passwd") && /^caddy:/m.test(readFileSync("/etc/passwd", "utf8"));

async function entry(limit: string, command: string[], wrap: string[] = []) {
  try {
    const { stdout, stderr } = await run(wrap[0] ?? "sh", [...wrap.slice(1), ...(wrap.length > 0 ? ["sh"] : []), entrypoint, ...command], {
      env: { ...process.env, CONNECTIONS_PER_ADDRESS: limit },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("deploy/web-entrypoint.sh", () => {
  it("refuses a cap that is not a whole number, naming the setting", async () => {
    const refused = await entry("many", ["true"]);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('CONNECTIONS_PER_ADDRESS must be a whole number, got "many"');
  });

  it.skipIf(!isRoot || !hasTools || !hasCaddyUser)("with the cap off (a load balancer caps), runs the command as the user caddy with no capability and no new privileges", async () => {
    const started = await entry("0", ["sh", "-c", "id -un; grep -E 'CapBnd|CapEff|NoNewPrivs' /proc/self/status"]);
    expect(started.code).toBe(0);
    expect(started.stdout).toContain("no cap on connections per client address here");
    expect(started.stdout.split("\n")[1]).toBe("caddy");
    expect(started.stdout).toMatch(/CapBnd:\s*0+\n/);
    expect(started.stdout).toMatch(/CapEff:\s*0+\n/);
    expect(started.stdout).toMatch(/NoNewPrivs:\s*1/);
  });

  it.skipIf(!isRoot || !hasTools)("installs the cap per IPv4 address and per IPv6 /64, then runs the command (in a namespace of its own)", async () => {
    const script = `sh ${entrypoint} true && nft list table inet oro_web`;
    const { stdout } = await run("unshare", ["-n", "sh", "-c", script], { env: { ...process.env, CONNECTIONS_PER_ADDRESS: "7" } });
    expect(stdout).toContain("at most 7 open connections per client address");
    expect(stdout).toMatch(/add @ipv4_clients { ip saddr ct count over 7 } reject with tcp reset/);
    expect(stdout).toMatch(/add @ipv6_clients { ip6 saddr & ffff:ffff:ffff:ffff:: ct count over 7 } reject with tcp reset/);
  });
});
