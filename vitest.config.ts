import { defineConfig } from 'vitest/config';
import path from 'node:path';

const alias = { '@': path.resolve(import.meta.dirname, 'src') };

/**
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
          testTimeout: 120_000,
          hookTimeout: 240_000,
          pool: 'forks',
        },
      },
    ],
  },
});
