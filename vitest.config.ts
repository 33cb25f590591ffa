import { defineConfig } from 'vitest/config';
import path from 'node:path';

// `server-only` throws outside React's server condition; tests (like tsx, through tsconfig.json's
// paths) load the server modules directly, so it resolves to the package's empty module there.
const alias = { '@': path.resolve(import.meta.dirname, 'src'), 'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js') };

/**
 * Integration files that cannot share the test server with other files, each with its reason:
 * add a file here rather than weakening what it asserts. They form the `alone` project, which
 * runs first, one file at a time, before anything else starts.
 */
const ALONE: Record<string, string> = {
  // Delivers every due delivery of the database with the clock moved days ahead, and counts
  // what its receivers get: other files' deliveries would be sent (and counted) too.
  'test/webhooks.test.ts': 'moves the clock and delivers every due webhook of the database',
  // Runs `roomtone maintenance run --now` an hour ahead on the shared database (uploads; the
  // webhooks file makes none, so the two run side by side).
  'test/mcp.test.ts': 'runs retention an hour ahead on the shared database',
};

/** Files that need the machine to themselves, not only the server: they run first, by themselves. */
const MACHINE_ALONE: Record<string, string> = {
  // Takes both cores with spinning processes and floods a server of its own, then asserts a
  // deadline within seconds: beside other files it slows them and measures their load too.
  'test/download-deadline.test.ts': 'busies both cores on purpose and asserts a deadline in seconds',
};

/**
 * Four vitest projects, one `npm test` (docs/testing.md):
 * - unit: pure modules next to their code (src/**), the SDK's own (sdk/test/**), the bench's (bench/**) and the
 *   scripts' (scripts/**), no server and no shared database;
 * - integration: test/** against the real production server and PostgreSQL that
 *   test/global-setup.ts starts (once per run, whichever of the integration projects run);
 * - alone: the ALONE files above, against the same server, with no integration file beside them;
 * - machine-alone: the MACHINE_ALONE files, with nothing beside them.
 * Sequence groups run one after the other (groups start at 1: a group 0 of one worker would run
 * last, vitest puts such projects after all others): 1 machine-alone, one file; 2 alone and unit together
 * (the alone files mostly wait on the server, and the unit files touch neither it nor its
 * database); 3 integration. Three files at a time in groups 2 and 3 (integration files mostly
 * wait on the server, a separate process, so three share the two cores; `VITEST_MAX_WORKERS=1`
 * runs one at a time). vitest orders each group's files longest first by the last run's
 * durations. Run one project with `--project unit`.
 */
const integration = {
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 120_000,
  // A file that starts an HTTPS stand-in on port 443 may wait in beforeAll for the files before
  // it to release the port (test/port-443.ts).
  hookTimeout: 900_000,
  pool: 'forks' as const,
};

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 3,
    // Every test that did not run is listed at the end; under CI one skipped without a reason
    // fails the run (scripts/skipped-tests-reporter.ts).
    reporters: ['default', './scripts/skipped-tests-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: { name: 'machine-alone', include: Object.keys(MACHINE_ALONE), ...integration, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        resolve: { alias },
        test: { name: 'alone', include: Object.keys(ALONE), ...integration, maxWorkers: 3, sequence: { groupOrder: 2 } },
      },
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts', 'sdk/test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // A worker process runs file after file without a fresh module graph each (a quarter of
          // the project's CPU was each file's fork and imports); each file gets back the
          // environment it found. Integration files keep their isolation: they hold module state
          // (servers, clocks, stand-ins) a next file must not see.
          isolate: false,
          setupFiles: ['test/unit-file-environment.ts'],
          maxWorkers: 3,
          sequence: { groupOrder: 2 },
        },
      },
      {
        resolve: { alias },
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...Object.keys(ALONE), ...Object.keys(MACHINE_ALONE)], ...integration, maxWorkers: 3, sequence: { groupOrder: 3 } },
      },
    ],
  },
});
