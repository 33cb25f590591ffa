/**
 * `npm run bench:console` publishes itself as `npm run bench` does (bench/publish.ts): when all
 * three perf specs passed with the default settings on a clean tree, the figures they attached
 * replace the console block of docs/performance.md, headed by the commit, the date and the
 * machine. A run of one file, a failed run or one with BENCH_RUNS / BENCH_LOG_ROWS set prints
 * its figures only (each spec also writes them to test-results/).
 */
import path from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { gitCommit, machine, PERFORMANCE_DOC, publishConsoleRun, runHeader, uncommitted } from '../../bench/publish';
import { CONSOLE_SPECS, consoleMarkdown, FIGURES, SETTINGS, type ConsoleFigures } from './console-figures';

const ROOT = path.resolve(import.meta.dirname, '../..');

export default class PublishReporter implements Reporter {
  /** Each spec's last attempt. */
  private readonly last = new Map<string, TestResult>();

  onTestEnd(test: TestCase, result: TestResult): void {
    this.last.set(path.basename(test.location.file), result);
  }

  onEnd(result: FullResult): void {
    const refused = this.refusal(result);
    if (refused !== null) {
      console.log(`bench:console: not published to ${PERFORMANCE_DOC}: ${refused}`);
      return;
    }
    const figures = Object.fromEntries(
      CONSOLE_SPECS.map((spec) => {
        const body = this.last.get(spec)!.attachments.find((a) => a.name === FIGURES)!.body!;
        return [spec, JSON.parse(body.toString('utf8'))];
      }),
    ) as ConsoleFigures;
    publishConsoleRun(ROOT, { header: runHeader('npm run bench:console', gitCommit(ROOT), machine()), markdown: consoleMarkdown(figures) });
    console.log(`bench:console: published to ${PERFORMANCE_DOC}'s console block (commit it)`);
  }

  private refusal(result: FullResult): string | null {
    if (result.status !== 'passed') return `the run ${result.status}`;
    const missing = CONSOLE_SPECS.filter((spec) => this.last.get(spec)?.status !== 'passed' || !this.last.get(spec)?.attachments.some((a) => a.name === FIGURES && a.body));
    if (missing.length > 0) return `not every spec ran and passed (${missing.join(', ')})`;
    const set = SETTINGS.filter((name) => process.env[name] !== undefined);
    if (set.length > 0) return `not the default settings (${set.join(', ')})`;
    return uncommitted(gitCommit(ROOT));
  }
}
