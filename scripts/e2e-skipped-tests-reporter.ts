/**
 * The e2e's counterpart of scripts/skipped-tests-reporter.ts, for Playwright: lists every test
 * that did not run, with its reason, and under CI (`CI=true` or `CI=1`) fails the run when a
 * test was skipped without one. A test may skip only with a reason:
 * `test.skip(condition, 'why')`.
 */
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class E2eSkippedTestsReporter implements Reporter {
  private readonly skipped: { name: string; reason: string | undefined }[] = [];
  private readonly ci = process.env.CI === 'true' || process.env.CI === '1';

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'skipped') return;
    const reason = test.annotations.find((a) => (a.type === 'skip' || a.type === 'fixme') && a.description)?.description;
    this.skipped.push({ name: `${test.location.file.split('/e2e/').pop() ?? test.location.file} > ${test.titlePath().slice(1).join(' > ')}`, reason });
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    if (this.skipped.length === 0) return undefined;
    const silent = this.skipped.filter((test) => test.reason === undefined);
    console.log(`\n${this.skipped.length} e2e test(s) did not run:`);
    for (const test of this.skipped) console.log(`  ${test.name} — ${test.reason ?? 'NO REASON GIVEN'}`);
    if (silent.length === 0 || !this.ci) return undefined;
    console.log(`CI: ${silent.length} e2e test(s) skipped without a reason: make them run, or skip with test.skip(condition, 'why'). Failing.`);
    return result.status === 'passed' ? { status: 'failed' } : undefined;
  }

  printsToStdio(): boolean {
    return false;
  }
}
