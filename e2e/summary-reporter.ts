import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** Ends the output with one plain `N passed, M failed` line, like the rest of CI. */
export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Count each test once, on its last attempt.
    const lastAttempt = result.status === "passed" || result.retry >= test.retries;
    if (!lastAttempt) return;
    const outcome = test.outcome();
    if (outcome === "expected" || outcome === "flaky") this.passed++;
    else if (outcome === "unexpected") this.failed++;
  }

  onEnd(result: FullResult): void {
    // A run that broke before any test (server did not start, say) is a failure too.
    const broken = result.status !== "passed" && this.failed === 0 ? 1 : 0;
    console.log(`${this.passed} passed, ${this.failed + broken} failed`);
  }
}
