import { defineConfig } from 'vitest/config';
import path from 'node:path';

const alias = { '@': path.resolve(import.meta.dirname, 'src') };

/**
 * Files in flight: three at a time (vitest's default on 2 cores would be one, cores - 1).
 * Integration files mostly wait on the server, a separate process, so three share two cores
 * well; the files that need the server to themselves run alone (test/run-alone.ts).
 * `VITEST_MAX_WORKERS=1` (read by vitest itself, over this value) runs one at a time again.
 * Measured in README, "Test infrastructure and CI time".
 *
 * Two projects, one `npm test`:
 * - unit: pure modules next to their code (src/**), no server;
 * - integration: test/** against the real production server and PostgreSQL that
 *   test/global-setup.ts starts (only when this project runs).
 * Run one alone with `npx vitest run --project unit`.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 3,
    reporters: ['default'],
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['src/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, pool: 'forks' },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/run-alone.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          pool: 'forks',
        },
      },
    ],
  },
});
