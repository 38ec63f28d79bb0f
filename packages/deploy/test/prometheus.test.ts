import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../src/compose.ts";

// deploy/prometheus: the scrape configuration and the alert rules, checked and unit-tested with Debian's promtool
// (package prometheus) when it is installed.
const promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].find((file) => existsSync(file));
if (!promtool) console.log("promtool is not installed: the alert rule checks are skipped (apt-get install prometheus runs them)");

const folder = path.join(repoRoot, "deploy", "prometheus");
const run = (args: string[]) => promisify(execFile)(promtool ?? "promtool", args, { cwd: folder });

describe.skipIf(!promtool)(`deploy/prometheus (${promtool ?? "skipped"})`, () => {
  it("has a valid configuration whose rule file loads", async () => {
    const { stdout, stderr } = await run(["check", "config", "prometheus.yml"]);
    expect(stdout + stderr).toMatch(/SUCCESS: 15 rules found/);
  });

  it("raises each alert on the series that should raise it, and not before (promtool test rules)", async () => {
    const { stdout, stderr } = await run(["test", "rules", "alerts.test.yml"]);
    expect(stdout + stderr).toContain("SUCCESS");
  });

  it("tests every alert it defines", async () => {
    const { readFile } = await import("node:fs/promises");
    const rules = await readFile(path.join(folder, "alerts.yml"), "utf8");
    const tests = await readFile(path.join(folder, "alerts.test.yml"), "utf8");
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((match) => match[1]);
    expect(alerts.length).toBe(15);
    expect(alerts.filter((alert) => !tests.includes(`alertname: ${alert}`))).toEqual([]);
  });

  it("tests every other rule file the configuration loads, each alert of it, in its own test file (<name>.test.yml)", async () => {
    const { readFile } = await import("node:fs/promises");
    const config = await readFile(path.join(folder, "prometheus.yml"), "utf8");
    const files = [...(/rule_files:\n((?:\s+- .+\n)+)/.exec(config)?.[1] ?? "").matchAll(/- (\S+)/g)].map((match) => match[1] ?? "");
    expect(files).toContain("reminders.yml");
    for (const file of files.filter((name) => name !== "alerts.yml")) {
      const testFile = file.replace(/\.yml$/, ".test.yml");
      const { stdout, stderr } = await run(["test", "rules", testFile]);
      expect(stdout + stderr, testFile).toContain("SUCCESS");
      const rules = await readFile(path.join(folder, file), "utf8");
      const tests = await readFile(path.join(folder, testFile), "utf8");
      const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((match) => match[1]);
      expect(alerts.length, file).toBeGreaterThan(0);
      expect(alerts.filter((alert) => !tests.includes(`alertname: ${alert}`)), file).toEqual([]);
    }
  });
});
