import { stripVTControlCharacters } from "node:util";
import type { FullResult, Reporter, TestCase, TestError, TestResult } from "@playwright/test/reporter";

/**
 * One closing line in the shape CI sums over every suite ("Tests  N failed | N passed"), with the skipped
 * journeys (test.fixme, or no Chromium) and the whole run's duration. Before it, one short paragraph per failed
 * journey: its first error line, where, and what the phone showed (the fixture's "phone" annotation), so that
 * the tail of a long CI log alone tells every failure apart. An error before or between the journeys (the stack or the
 * simulator did not start, no browser for the rehearsal) counts as one failure and is named the same way.
 */
export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;
  private readonly started = Date.now();
  private readonly failures: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    // Only the final attempt counts (there are no retries, but be exact).
    if (result.retry < test.retries && result.status !== "passed" && result.status !== "skipped") return;
    if (result.status === "passed") this.passed += 1;
    else if (result.status === "skipped") this.skipped += 1;
    else {
      this.failed += 1;
      const error = result.errors[0];
      const where = error?.location ? `${error.location.file.split("/").slice(-2).join("/")}:${error.location.line}` : "";
      const phone = test.annotations.find((annotation) => annotation.type === "phone")?.description ?? "";
      this.failures.push(
        [`✘ ${test.title}`, `  ${stripVTControlCharacters(error?.message ?? result.status).split("\n")[0]} ${where}`.trimEnd(), phone && `  the phone showed: ${phone}`].filter(Boolean).join("\n"),
      );
    }
  }

  /** An error outside every journey (the global setup: no stack, no simulator, no browser): one failure, named. */
  onError(error: TestError): void {
    this.failed += 1;
    this.failures.push(`✘ the journeys could not run: ${stripVTControlCharacters(error.message ?? error.value ?? "an error outside the journeys").split("\n")[0]}`);
  }

  onEnd(result: FullResult): void {
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    const total = this.passed + this.failed + this.skipped;
    if (this.failures.length > 0) console.log(`e2e failures:\n${this.failures.join("\n")}`);
    console.log(`e2e journeys: ${result.status} in ${seconds} s (stack start included)`);
    console.log(`Tests  ${this.failed} failed | ${this.passed} passed | ${this.skipped} skipped (${total})`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
