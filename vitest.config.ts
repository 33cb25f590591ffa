import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import path from 'node:path';

// `server-only` throws outside React's server condition; tests (like tsx, through tsconfig.json's
// paths) load the server modules directly, so it resolves to the package's empty module there.
const alias = { '@': path.resolve(import.meta.dirname, 'src'), 'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js') };

/**
 * Integration files that cannot share the test server with other files, each with its reason:
 * add a file here rather than weakening what it asserts. They run alone (test/run-alone.ts).
 */
const ALONE: Record<string, string> = {
  // Delivers every due delivery of the database with the clock moved days ahead, and counts
  // what its receivers get: other files' deliveries would be sent (and counted) too.
  'test/webhooks.test.ts': 'moves the clock and delivers every due webhook of the database',
  // Queues behind the server's two worker slots and cancels before the job starts: other
  // files' jobs change who gets the next slot.
  'test/creations.test.ts': 'needs the worker slots to itself to cancel a queued generation',
  // Runs `roomtone maintenance run --now` an hour ahead on the shared database (uploads).
  'test/mcp.test.ts': 'runs retention an hour ahead on the shared database',
  // Asserts queue waits of a few seconds on a server of its own: other files' servers and
  // jobs on the two cores would be measured too.
  'test/fair-scheduling.test.ts': 'asserts queue waits in seconds, so it needs the cores to itself',
};

/**
 * Files that serve a protocol on port 443 of ::1 (the SSRF-safe client reaches only the
 * standard ports): they take turns with each other, never with the rest.
 */
const PORT_443 = [
  // The local Replicate server (test/backends/replicate-server.ts).
  'test/backends/replicate-backend.test.ts',
  'test/backends/mcp-backend.test.ts',
  'test/backends/deadline-gc.test.ts',
  // Webhook receivers (test/webhook-receiver.ts); jobs-inngest once failed with EADDRINUSE beside
  // the Replicate files. webhooks.test.ts runs alone anyway.
  'test/jobs-inngest.test.ts',
  'test/webhooks.test.ts',
  'test/sdk.test.ts',
];

const root = import.meta.dirname;
const relative = (spec: TestSpecification) => path.relative(root, spec.moduleId).split(path.sep).join('/');

/**
 * The order files start in. vitest's own puts every integration file before every unit file,
 * longest first (by the last run's durations; by size on a fresh clone). A file that runs alone
 * waits for the integration files in flight and holds every other one back while it runs, so
 * placed among them it idles the other slots. Here the alone files come first, each followed by
 * its share of the unit files (which take no lock): while one runs alone, the other slots run
 * unit files. Then the other integration files, in vitest's order. Only the order changes.
 */
class AloneFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const alone = sorted.filter((spec) => relative(spec) in ALONE);
    const unit = sorted.filter((spec) => spec.project.name === 'unit');
    const rest = sorted.filter((spec) => !alone.includes(spec) && !unit.includes(spec));
    const share = Math.ceil(unit.length / Math.max(alone.length, 1));
    const head = alone.length === 0 ? unit : alone.flatMap((spec, i) => [spec, ...unit.slice(i * share, (i + 1) * share)]);
    return [...head, ...rest];
  }
}

/**
 * Files in flight: three at a time (vitest's default on 2 cores would be one, cores - 1).
 * Integration files mostly wait on the server, a separate process, so three share two cores;
 * the ALONE files run alone, first, among the unit files (AloneFirstSequencer).
 * `VITEST_MAX_WORKERS=1` (read by vitest itself, over this value) runs one at a time again.
 * Measured in README, "Test infrastructure and CI time".
 *
 * Two projects, one `npm test`:
 * - unit: pure modules next to their code (src/**), the SDK's own (sdk/test/**) and the
 *   scripts' (scripts/**), no server;
 * - integration: test/** against the real production server and PostgreSQL that
 *   test/global-setup.ts starts (only when this project runs).
 * Run one alone with `npx vitest run --project unit`.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 3,
    sequence: { sequencer: AloneFirstSequencer },
    reporters: ['default'],
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'sdk/test/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, pool: 'forks' },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/run-alone.ts'],
          provide: { aloneFiles: Object.keys(ALONE), port443Files: PORT_443 },
          testTimeout: 120_000,
          hookTimeout: 240_000,
          pool: 'forks',
        },
      },
    ],
  },
});
