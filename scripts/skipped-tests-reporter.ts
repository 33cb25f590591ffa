/**
 * A vitest reporter beside the default one: lists every test that did not run, with its reason,
 * at the end of the run. A test may be skipped only loudly, by `ctx.skip('why')` inside it; a
 * skip without a reason (`it.skip`, `it.runIf(false)`, `it.todo`, tests left behind by a
 * failing `beforeAll`) fails the run under CI (`CI=true` or `CI=1`) and is listed everywhere.
 * Why: a bare "N skipped" in a summary hides a `runIf` that never runs or a file whose
 * `beforeAll` failed.
 */
import type { Reporter, TestModule } from 'vitest/node';

export interface SkippedTest {
  /** The file, relative to the project root, then the suites and the test's name. */
  name: string;
  /** The reason given to `ctx.skip`; undefined for a skip without one. */
  reason: string | undefined;
}

function skippedTests(modules: ReadonlyArray<TestModule>): SkippedTest[] {
  const skipped: SkippedTest[] = [];
  for (const testModule of modules) {
    for (const test of testModule.children.allTests()) {
      const result = test.result();
      if (result.state !== 'skipped') continue;
      skipped.push({ name: `${testModule.relativeModuleId} > ${test.fullName}`, reason: result.note });
    }
  }
  return skipped;
}

export default class SkippedTestsReporter implements Reporter {
  private readonly ci: boolean;
  private readonly write: (line: string) => void;

  constructor(options: { ci?: boolean; write?: (line: string) => void } = {}) {
    this.ci = options.ci ?? (process.env.CI === 'true' || process.env.CI === '1');
    this.write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped = skippedTests(modules);
    if (skipped.length === 0) return;
    const silent = skipped.filter((test) => test.reason === undefined);
    // Outside CI a `-t` filter skips the rest of a file without a reason too: those are counted,
    // not listed.
    const listed = this.ci ? skipped : skipped.filter((test) => test.reason !== undefined);
    this.write(`\n${skipped.length} test(s) did not run${listed.length > 0 ? ':' : '.'}`);
    for (const test of listed) this.write(`  ${test.name} — ${test.reason ?? 'NO REASON GIVEN'}`);
    if (silent.length === 0) return;
    if (this.ci) {
      this.write(`CI: ${silent.length} test(s) skipped without a reason: make them run, or skip with ctx.skip('why'). Failing.`);
      process.exitCode = 1;
    } else {
      this.write(`${silent.length} of them without a reason (a -t filter, it.skip, runIf, todo, a failed beforeAll): CI fails on those.`);
    }
  }
}
