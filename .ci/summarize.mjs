// Sums the test counts that each runner printed (mocha/Hardhat, vitest, node:test) into one closing line
// "N passed, N failed", and exits with the run's status (or 1 if a failure was counted). Before that line it
// prints how long each Turborepo task took (from the run summary that `turbo run --summarize` writes), so a
// suite that slows down shows up in CI's output.
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

// The failing tests by name, so that the end of CI's output says what failed without scrolling back.
const failedLines = failureLines(text);
if (failedLines.length > 0) {
  console.log("\nfailures, as their runners printed them:");
  for (const line of failedLines.slice(0, 40)) console.log(`  ${line.slice(0, 300)}`);
  if (failedLines.length > 40) console.log(`  … and ${failedLines.length - 40} more`);
}

// Why they failed: the lines each detailed failure block opens with (Playwright's and mocha's "N) title" blocks,
// vitest's "FAIL file > title" blocks), so that a failure that happened only on CI's machine can be understood
// from the end of its output alone.
const lines = text.split("\n");
const reasons = [];
for (let index = 0; index < lines.length && reasons.length < 12; index += 1) {
  if (!/^(?:\S+:\s+)?\s*(?:\d+\) \S|FAIL\s+\S.* > )/.test(lines[index])) continue;
  const block = [lines[index].trim()];
  for (let next = index + 1; next < lines.length && block.length < 14; next += 1) {
    const line = lines[next].trimEnd();
    if (/^(?:\S+:\s+)?\s*(?:\d+\) \S|FAIL\s)/.test(line) || /^\s*(?:attachment #|Error Context:|─{10})/.test(line)) break;
    if (line.trim() !== "") block.push(`    ${line.trim().slice(0, 240)}`);
  }
  if (block.length > 1 && !reasons.some((reason) => reason[0] === block[0])) reasons.push(block);
}
if (reasons.length > 0) {
  console.log("\nwhy, as their runners printed it (the start of each failure's details):");
  for (const block of reasons) console.log(block.map((line) => `  ${line}`).join("\n"));
}

// What a failed journey's phone showed (the e2e summary reporter's line), and the API's refusals and page errors the
// journeys logged on the way (the last few): a journey that failed only on CI's machine says what the app was waiting for.
const shown = lines.filter((line) => /^(?:\S+:\s+)?\s*the phone showed: /.test(line)).map((line) => line.trim());
const refusals = lines.filter((line) => /^(?:\S+:\s+)?\[(?:[^\]]{1,3}\] (?:GET|POST|PUT|PATCH|DELETE) \/api\/\S* → \d{3}|[^\]]{1,200}\] page error)/.test(line));
if (failed > 0 && shown.length + refusals.length > 0) {
  console.log("\nwhat the journeys saw (the phone when one failed; the last API refusals and page errors they logged):");
  for (const line of shown.slice(0, 6)) console.log(`  ${line.slice(0, 500)}`);
  for (const line of refusals.slice(-12)) console.log(`  ${line.trim().slice(0, 240)}`);
}

const durations = taskDurations();
if (durations.length > 0) {
  console.log("\nduration per task (longest first):");
  for (const { task, seconds, exitCode, cached } of durations) {
    const state = exitCode === 0 ? (cached ? "cached" : "ok") : `exit ${exitCode}`;
    console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${task}  (${state})`);
  }
}

const status = Number(statusArg);
// A suite that crashed before reporting (or a failed lint/type check) still counts as a failure.
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(status !== 0 ? status : failed > 0 || passed === 0 ? 1 : 0);
