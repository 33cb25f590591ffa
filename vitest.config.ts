import { defineConfig } from 'vitest/config';
import path from 'node:path';

const alias = { '@': path.resolve(import.meta.dirname, 'src') };

/**
 * Files in flight: vitest's default, one on 2 cores (cores - 1). `VITEST_MAX_WORKERS=3` runs
 * three at a time (integration files mostly wait on the server); the files that need the server
 * to themselves then run alone (test/run-alone.ts). Not the default yet: on the loaded shared
 * machine it was not proven stable (README, "Test infrastructure and CI time").
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
