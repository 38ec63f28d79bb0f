import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { readRepoFile, repoRoot } from "../src/compose.ts";

// deploy/prometheus: the scrape configuration and the alert rules, checked and unit-tested with Debian's promtool
// (package prometheus) when it is installed.
const promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].find((file) => existsSync(file));
if (!promtool) console.log("promtool is not installed: the alert rule checks are skipped (apt-get install prometheus runs them)");

const folder = path.join(repoRoot, "deploy", "prometheus");
const run = (args: string[]) => promisify(execFile)(promtool ?? "promtool", args, { cwd: folder });
/** The alerts alerts.yml defines (each `- alert:` line): promtool must load every one, and the tests name every one. */
const definedAlerts = async () => {
  const { readFile } = await import("node:fs/promises");
  return [...(await readFile(path.join(folder, "alerts.yml"), "utf8")).matchAll(/- alert: (\w+)/g)].map((match) => match[1]);
};

describe.skipIf(!promtool)(`deploy/prometheus (${promtool ?? "skipped"})`, () => {
  it("has a valid configuration whose rule file loads", async () => {
    const { stdout, stderr } = await run(["check", "config", "prometheus.yml"]);
    const alerts = await definedAlerts();
    expect(alerts.length).toBeGreaterThanOrEqual(16);
    expect(stdout + stderr).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it("raises each alert on the series that should raise it, and not before (promtool test rules)", async () => {
    const { stdout, stderr } = await run(["test", "rules", "alerts.test.yml"]);
    expect(stdout + stderr).toContain("SUCCESS");
  });

  it("tests every alert it defines", async () => {
    const { readFile } = await import("node:fs/promises");
    const tests = await readFile(path.join(folder, "alerts.test.yml"), "utf8");
    const alerts = await definedAlerts();
    expect(alerts).toContain("IndexerNotCurrent");
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

interface RuleTest { alert_rule_test?: Array<{ eval_time: string; alertname: string; exp_alerts?: unknown[] }> }

/** promtool's durations as used in the tests: 90m, 4h30m, 0m. */
const minutes = (duration: string): number =>
  [...duration.matchAll(/(\d+)([hm])/g)].reduce((sum, [, n, unit]) => sum + Number(n) * (unit === "h" ? 60 : 1), 0);

describe("deploy/prometheus/alerts.test.yml", () => {
  it("checks that each alert stays silent before it fires, on the same series (the Watchdog fires always)", () => {
    const { tests } = parse(readRepoFile("deploy/prometheus/alerts.test.yml")) as { tests: RuleTest[] };
    const rules = readRepoFile("deploy/prometheus/alerts.yml");
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((match) => match[1] ?? "").filter((alert) => alert !== "Watchdog");
    const silentFirst = new Set<string>();
    for (const test of tests) {
      const checks = test.alert_rule_test ?? [];
      for (const fired of checks.filter((check) => (check.exp_alerts ?? []).length > 0)) {
        const before = checks.some((check) => check.alertname === fired.alertname && (check.exp_alerts ?? []).length === 0 && minutes(check.eval_time) < minutes(fired.eval_time));
        if (before) silentFirst.add(fired.alertname);
      }
    }
    expect(alerts.filter((alert) => !silentFirst.has(alert))).toEqual([]);
  });
});

interface Route { receiver?: string; matchers?: string[]; group_wait?: string; group_interval?: string; repeat_interval?: string; routes?: Route[] }

/** Alertmanager's durations as this file writes them: 15s, 1m, 4h. */
const seconds = (duration = ""): number =>
  [...duration.matchAll(/(\d+)([hms])/g)].reduce((sum, [, n, unit]) => sum + Number(n) * (unit === "h" ? 3600 : unit === "m" ? 60 : 1), 0);

describe("deploy/prometheus/alertmanager.yml", () => {
  it("sends the Watchdog to the dead man's switch at least once a minute, every other alert to the operator", () => {
    const { route } = parse(readRepoFile("deploy/prometheus/alertmanager.yml")) as { route: Route };
    expect(route.receiver).toBe("operator");
    const watchdog = route.routes?.find((child) => child.matchers?.includes('alertname="Watchdog"'));
    expect(watchdog?.receiver).toBe("deadmans-switch");
    expect(route.routes?.filter((child) => child !== watchdog)).toEqual([]);
    // Alertmanager resends only on a group tick once the repeat interval has passed: arrivals are at most a repeat
    // plus a tick apart (a 1 minute repeat on 1 minute ticks arrived every 2 minutes, measured on Debian's 0.25).
    expect(seconds(watchdog?.group_wait)).toBe(0);
    expect(seconds(watchdog?.repeat_interval) + seconds(watchdog?.group_interval)).toBeLessThanOrEqual(60);
  });
});
