import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';

/**
 * `npm run bench:console`: the console's timings (e2e/perf/*.perf.ts; docs/performance.md, "The
 * console"), not part of npm test. One file at a time: figures taken beside another spec measure both.
 * A whole run publishes its figures there (publish-reporter.ts).
 */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.perf.ts',
  // Relative to this file: keep the run's files in the ignored test-results/ at the root.
  outputDir: '../../test-results/e2e-perf',
  globalSetup: '../global-setup.ts',
  workers: 1,
  timeout: 900_000,
  // The figures go to docs/performance.md when the whole run may be published (publish-reporter.ts).
  reporter: [['list'], ['./publish-reporter.ts']],
});
