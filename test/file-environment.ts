/**
 * The environment of one test file: what it sets is given back after its last test. A file that
 * shares its worker process (`@worker-process shared`, test/shared-worker-guard.ts) must leave
 * the environment as it found it, whatever its tests set on the way (`setEnv`, a setting a test
 * changes and another needs unset).
 */
import { afterAll } from 'vitest';
import { resetConfigCache, setEnv } from '@/server/platform/config';

type Setting = Parameters<typeof setEnv>[0];

/** Puts `env` back as `found` was: variables added since are deleted, changed ones restored. */
export function restoreEnvironment(found: Readonly<NodeJS.ProcessEnv>): void {
  for (const name of Object.keys(process.env)) if (!(name in found)) delete process.env[name];
  Object.assign(process.env, found);
  resetConfigCache();
}

/**
 * Sets `settings` now, for this file's tests, and after its last test (afterAll) gives back the
 * whole environment as it was before them, with the config cache that reads it dropped.
 * Call it at the top of the file (it registers the afterAll).
 */
export function environmentForThisFile(settings: Partial<Record<Setting, string>> = {}): void {
  const found = { ...process.env };
  afterAll(() => restoreEnvironment(found));
  for (const [name, value] of Object.entries(settings)) setEnv(name as Setting, value);
}
