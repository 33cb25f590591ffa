import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';

/** `npm run bench:console`: page timings of the console with 1 M request-log rows (not part of npm test). */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.perf.ts',
  // Relative to this file: keep the run's files in the ignored test-results/ at the root.
  outputDir: '../../test-results/e2e-perf',
  globalSetup: '../global-setup.ts',
  timeout: 900_000,
  reporter: [['list']],
});
