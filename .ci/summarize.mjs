// Sums the test counts that each runner printed (mocha/Hardhat, vitest, node:test) into one closing line
// "N passed, N failed", and exits with the run's status (or 1 if a failure was counted). Before that line it
// prints how long each Turborepo task took (from the newest run summary in .turbo/runs: the one `.ci/test.mjs` writes
// in the shape of `turbo run --summarize`'s), so a suite that slows down shows up in CI's output.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { countTests, failureLines, plainText } from "./test-counts.mjs";

const [logFile, statusArg = "0", runsDir = ".turbo/runs"] = process.argv.slice(2);
const text = plainText(readFileSync(logFile, "utf8"));
const { passed, failed: failedCounted } = countTests(text);
let failed = failedCounted;

/** The task durations of the newest Turborepo run summary, longest first. */
function taskDurations() {
  if (!existsSync(runsDir)) return [];
  const newest = readdirSync(runsDir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => path.join(runsDir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) return [];
  const summary = JSON.parse(readFileSync(newest, "utf8"));
  return (summary.tasks ?? [])
    .filter((task) => task.execution)
    .map((task) => ({
      task: task.taskId,
      seconds: (task.execution.endTime - task.execution.startTime) / 1000,
      exitCode: task.execution.exitCode,
      cached: task.cache?.status === "HIT",
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

const lines = text.split("\n");
/** Turborepo's "<package>:<task>: " before a line of a task's output. */
const TASK_PREFIX = /^(@oro\/[\w-]+):[\w:-]+: ?/;
const withoutPrefix = (line) => line.replace(TASK_PREFIX, "").trim();
const suiteOf = (line) => TASK_PREFIX.exec(line)?.[1];

// What comes last is what a reader of CI's last 60 lines sees first, so the order below is: how long each task took,
// why the failures failed (their runners' first lines), what the journeys saw, then which tests and tasks failed, and
// the closing count.

const durations = taskDurations();
if (durations.length > 0) {
  const shownTasks = durations.filter(({ seconds, exitCode }) => seconds >= 10 || exitCode !== 0);
  const cells = shownTasks.map(({ task, seconds, exitCode, cached }) => `${seconds.toFixed(0).padStart(5)} s ${task}${exitCode !== 0 ? ` (exit ${exitCode})` : cached ? " (cached)" : ""}`);
  console.log(`\nduration per task, longest first (${durations.length - shownTasks.length} under 10 s left out):`);
  for (let index = 0; index < cells.length; index += 3) console.log(`  ${cells.slice(index, index + 3).map((cell) => cell.padEnd(40)).join("")}`.trimEnd());
}

// Why they failed: the first lines of each detailed failure block (Playwright's and mocha's "N) title" blocks, vitest's
// "FAIL file > title" blocks), so that a failure that happened only on CI's machine can be understood from the end of
// its output alone.
const reasons = [];
for (let index = 0; index < lines.length && reasons.length < 8; index += 1) {
  if (!/^(?:\S+:\s+)?\s*(?:\d+\) \S|FAIL\s+\S.* > )/.test(lines[index])) continue;
  const suite = suiteOf(lines[index]);
  const block = [`${suite ? `${suite}: ` : ""}${withoutPrefix(lines[index])}`];
  for (let next = index + 1; next < lines.length && block.length < 7; next += 1) {
    const line = withoutPrefix(lines[next]);
    if (/^(?:\d+\) \S|FAIL\s)/.test(line) || /^(?:attachment #|Error Context:|─{10}|⎯{5})/.test(line)) break;
    if (line !== "" && !/^npm warn /.test(line) && !/^\s*\d*\s*\|/.test(line)) block.push(`    ${line.slice(0, 200)}`);
  }
  if (block.length > 1 && !reasons.some((reason) => reason[0] === block[0])) reasons.push(block);
}
if (reasons.length > 0) {
  console.log("\nwhy, as their runners printed it (the first lines of each failure's details):");
  for (const block of reasons) console.log(block.map((line) => `  ${line}`).join("\n"));
}

// What a failed journey's phone showed (the e2e summary reporter's line), and the API's refusals and page errors the
// journeys logged on the way (the last few): a journey that failed only on CI's machine says what the app was waiting for.
const shown = lines.filter((line) => /^(?:\S+:\s+)?\s*the phone showed: /.test(line)).map((line) => line.trim());
const refusals = lines.filter((line) => /^(?:\S+:\s+)?\[(?:[^\]]{1,3}\] (?:GET|POST|PUT|PATCH|DELETE) \/api\/\S* → \d{3}|[^\]]{1,200}\] page error)/.test(line));
if (failed > 0 && shown.length + refusals.length > 0) {
  console.log("\nwhat the journeys saw (the phone when one failed; the last API refusals and page errors they logged):");
  for (const line of shown.slice(0, 4)) console.log(`  ${line.slice(0, 400)}`);
  for (const line of refusals.slice(-8)) console.log(`  ${line.trim().slice(0, 200)}`);
}

// The failed tests by name (vitest's "FAIL file > title" where it printed one, else its "×" line; Playwright's and the
// journeys' ✘, mocha's numbered failures, the rehearsal's "not ok - <step>"), each with its suite, then the tasks that
// failed: a lint, a type check or a suite that crashed before naming a test shows there.
const named = failureLines(text).map((line) => ({ suite: suiteOf(line) ?? "", line: withoutPrefix(line).replace(/\s+\d+(?:\.\d+)?m?s$|\s+\(\d+(?:\.\d+)?m?s?\)$/, "") }));
const suitesWithFail = new Set(named.filter(({ line }) => line.startsWith("FAIL")).map(({ suite }) => suite));
const failedTests = named.filter(({ suite, line }) => !(line.startsWith("×") && suitesWithFail.has(suite)));
// Vitest's errors outside every test (an unhandled rejection fails the run without failing a test): the error and the
// file it came from.
for (let index = 0; index < lines.length; index += 1) {
  if (!/⎯ Unhandled (?:Rejection|Error) ⎯/.test(lines[index])) continue;
  const after = lines.slice(index + 1, index + 40).map(withoutPrefix);
  const error = after.find((line) => line !== "") ?? "";
  const origin = after.map((line) => /originated in "([^"]+)"/.exec(line)?.[1]).find(Boolean);
  failedTests.push({ suite: suiteOf(lines[index]) ?? "", line: `unhandled, outside every test${origin ? ` (from ${origin})` : ""}: ${error}` });
}
// A lint's and a type check's errors: ESLint's "  12:5  error  message  rule" under the file it names, tsc's
// "file(12,5): error TS2322: message". A few of each task.
const checkErrors = new Map();
let lintedFile = "";
for (const line of lines) {
  const task = /^(@oro\/[\w-]+):(lint|typecheck): ?(.*)$/.exec(line);
  if (!task) continue;
  const [, suite, kind, rest] = task;
  const key = `${suite}#${kind}`;
  if (/^\/\S+\.(?:[cm]?[jt]sx?)$/.test(rest.trim())) lintedFile = rest.trim().replace(/^.*?\/(?:apps|packages|contracts)\/[\w-]+\//, "");
  const eslint = /^\s+(\d+:\d+)\s+error\s+(.*)$/.exec(rest);
  const tsc = /^(\S+\(\d+,\d+\)): error (TS\d+: .*)$/.exec(rest.trim());
  const found = eslint ? `${lintedFile}:${eslint[1]} ${eslint[2].replace(/\s{2,}/g, " ")}` : tsc ? `${tsc[1]} ${tsc[2]}` : undefined;
  if (!found) continue;
  const list = checkErrors.get(key) ?? [];
  list.push(found);
  checkErrors.set(key, list);
}
for (const [key, errors] of checkErrors) {
  for (const error of errors.slice(0, 4)) failedTests.push({ suite: key, line: error });
  if (errors.length > 4) failedTests.push({ suite: key, line: `… and ${errors.length - 4} more errors` });
}
if (failedTests.length > 0) {
  console.log(`\nfailed tests and checks (${failedTests.length}), as their runners named them:`);
  for (const { suite, line } of failedTests.slice(0, 20)) console.log(`  ${suite ? `${suite}: ` : ""}${line.slice(0, 220)}`);
  if (failedTests.length > 20) console.log(`  … and ${failedTests.length - 20} more (above)`);
}
const failedTasks = durations.filter(({ exitCode }) => exitCode !== 0);
if (failedTasks.length > 0) console.log(`failed tasks: ${failedTasks.map(({ task, exitCode }) => `${task} (exit ${exitCode})`).join(", ")}`);

const status = Number(statusArg);
// A suite that crashed before reporting (or a failed lint/type check) still counts as a failure.
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(status !== 0 ? status : failed > 0 || passed === 0 ? 1 : 0);
