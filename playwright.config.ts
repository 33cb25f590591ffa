import { defineConfig } from '@playwright/test';
import { CHROMIUM_CANDIDATES, chromiumPath } from './scripts/chromium-path.mjs';

/**
 * e2e of the console in Debian's Chromium headless shell (`apt-get install
 * chromium-headless-shell`, else `chromium`: scripts/chromium-path.mjs; Playwright cannot
 * download its own browsers here) against the production build started the zero-setup way
 * (`scripts/start.mjs`, embedded PostgreSQL in a temporary DATA_DIR): see e2e/global-setup.ts.
 * Two workers (E2E_WORKERS to change): the files share one server and its demo organization, and
 * each test only asserts on what it made (ids, names, its own endpoint's events).
 */
export const CHROMIUM_PATH = chromiumPath() ?? CHROMIUM_CANDIDATES[0];

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  timeout: 300_000,
  // Shared 2-core machines run several servers at once: pages can take seconds.
  expect: { timeout: 30_000 },
  // A test that fails runs once more, recording its trace (below). One that fails twice fails
  // the run; one that passes on its retry is listed as flaky at the end of the run, with its
  // first failure and the retry's trace, and does not fail it (the flakes seen so far and what
  // is known of them: docs/testing.md).
  retries: 1,
  // Every test that did not run is listed; under CI one skipped without a reason fails the run.
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }], ['./scripts/e2e-skipped-tests-reporter.ts']],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`,
    // A failed test's retry records a trace (actions, DOM snapshots, network, console); every
    // failure keeps a screenshot. Recording a trace for every test, to keep the failures' only,
    // cost a sixth of the suite's CPU (docs/testing.md); no screencast either way.
    trace: { mode: 'on-first-retry', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    // As a user who asked for reduced motion (app/globals.css): loaders stay still instead of
    // repainting the page every frame while a test waits.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 860 } } }],
});
