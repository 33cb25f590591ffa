/**
 * Setup of the `unit` project, whose files share their worker process (`isolate: false`,
 * vitest.config.ts): each file ends with the environment it found, and the config cache that
 * reads it dropped, whatever it set.
 */
import { afterAll } from 'vitest';
import { resetConfigCache } from '@/server/platform/config';

const found = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in found)) delete process.env[name];
  Object.assign(process.env, found);
  resetConfigCache();
});
