import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * One closing line in the shape CI sums over every suite ("Tests  N failed | N passed"), with the skipped
 * journeys (test.fixme, or no Chromium) and the whole run's duration.
 */
export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;
  private readonly started = Date.now();

  onTestEnd(test: TestCase, result: TestResult): void {
    // Only the final attempt counts (there are no retries, but be exact).
    if (result.retry < test.retries && result.status !== "passed" && result.status !== "skipped") return;
    if (result.status === "passed") this.passed += 1;
    else if (result.status === "skipped") this.skipped += 1;
    else this.failed += 1;
  }

  onEnd(result: FullResult): void {
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    const total = this.passed + this.failed + this.skipped;
    console.log(`e2e journeys: ${result.status} in ${seconds} s (stack start included)`);
    console.log(`Tests  ${this.failed} failed | ${this.passed} passed | ${this.skipped} skipped (${total})`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
