import { defineConfig } from 'vitest/config';
import path from 'node:path';
import { sameOnEveryNodeLine } from './scripts/node-lines.mjs';
import { sharedWorkerFiles } from './scripts/worker-process.mjs';
import LongestFirstSequencer from './test/longest-first-sequencer.mjs';

// `server-only` throws outside React's server condition; tests (like tsx, through tsconfig.json's
// paths) load the server modules directly, so it resolves to the package's empty module there.
const alias = { '@': path.resolve(import.meta.dirname, 'src'), 'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js') };

/** Files that need the machine to themselves, not only the server: they run first, by themselves. */
const MACHINE_ALONE: Record<string, string> = {
  // Takes both cores with spinning processes and floods a server of its own, then asserts a
  // deadline within seconds: beside other files it slows them and measures their load too.
  'test/download-deadline.test.ts': 'busies both cores on purpose and asserts a deadline in seconds',
};

/**
 * Under a second Node line (SECOND_NODE_PASS=1, CI's Node 24 pass) the files whose header says
 * `@node-lines same: <why>` stay out: every other file runs under both (scripts/node-lines.mjs).
 */
const secondPassExclude = process.env.SECOND_NODE_PASS === '1' ? sameOnEveryNodeLine() : [];

/** Integration files whose header says `@worker-process shared: <why>` (scripts/worker-process.mjs). */
const SHARED_WORKER = sharedWorkerFiles();

/**
 * Four vitest projects, one `npm test` (docs/testing.md):
 * - unit: pure modules next to their code (src/**), the SDK's own (sdk/test/**), the bench's (bench/**) and the
 *   scripts' (scripts/**), no server and no shared database;
 * - integration: test/** against the real production server and PostgreSQL that
 *   test/global-setup.ts starts (once per run, whichever of the integration projects run), each
 *   file in a worker process of its own;
 * - integration-shared: the integration files that declare `@worker-process shared`, run one
 *   after the other in shared worker processes (`isolate: false`): what a file imports is
 *   loaded once per process, not once per file; test/shared-worker-guard.ts fails a file that
 *   leaves its process other than it found it;
 * - machine-alone: the MACHINE_ALONE files, with nothing beside them.
 * Sequence groups run one after the other (groups start at 1: a group 0 of one worker would run
 * last, vitest puts such projects after all others): 1 machine-alone, one file; 2 unit and
 * both integration projects together, four files at a time: integration files mostly wait on the
 * server (a separate process) and the unit files fill the cores they leave idle (`VITEST_MAX_WORKERS=1`
 * runs one at a time), longest first across both projects (test/longest-first-sequencer.mjs: the
 * last run's durations, or an estimate on a clean clone). A file that cannot share the server's database with other files (it moves the
 * clock over every row, or deletes what it finds) takes a database and server of its own
 * (test/server-processes.ts), not the machine. Run one project with `--project unit`.
 */
const integration = {
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 120_000,
  // A file that starts an HTTPS stand-in on port 443 may wait in beforeAll for the files before
  // it to release the port (test/port-443.ts).
  hookTimeout: 900_000,
  pool: 'forks' as const,
  // WebAssembly stays on V8's baseline compiler (Liftoff) in these short-lived processes: Prisma's
  // query compiler and the migrations' schema engine are wasm, and optimising their hot functions
  // cost more CPU than it saved (about 0.9 of 2.3 CPU-s per file, 0.6 more per database the file
  // migrates; docs/testing.md, "vitest projects").
  execArgv: ['--liftoff-only'],
};

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 4,
    sequence: { sequencer: LongestFirstSequencer },
    // Every test that did not run is listed at the end; under CI one skipped without a reason
    // fails the run (scripts/skipped-tests-reporter.ts).
    reporters: ['default', './scripts/skipped-tests-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: { name: 'machine-alone', include: Object.keys(MACHINE_ALONE), exclude: secondPassExclude, ...integration, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts', 'sdk/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...secondPassExclude],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // A worker process runs file after file without a fresh module graph each (a quarter of
          // the project's CPU was each file's fork and imports); each file gets back the
          // environment it found. An integration file shares a worker process only when it
          // declares that it gives back what it sets (`integration-shared`, checked by its guard).
          isolate: false,
          setupFiles: ['test/unit-file-environment.ts'],
          maxWorkers: 4,
          sequence: { groupOrder: 2 },
        },
      },
      {
        resolve: { alias },
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**', ...Object.keys(MACHINE_ALONE), ...SHARED_WORKER, ...secondPassExclude], ...integration, maxWorkers: 4, sequence: { groupOrder: 2 } },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration-shared',
          // An empty list would mean vitest's default globs: a pattern that matches nothing instead.
          include: SHARED_WORKER.length > 0 ? SHARED_WORKER : ['test/no-shared-worker-files'],
          exclude: ['**/node_modules/**', ...Object.keys(MACHINE_ALONE), ...secondPassExclude],
          ...integration,
          isolate: false,
          setupFiles: ['test/shared-worker-guard.ts'],
          maxWorkers: 4,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
