/**
 * Test harness for tests that need their own processes: a fresh database on the test cluster,
 * production servers (`scripts/start.mjs`, as `npm start`) and `roomtone worker` processes on it,
 * with their own settings. Processes are killed (SIGKILL) if a test forgets to stop them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { recreateDatabase, dropDatabase } from '@/server/platform/embedded-postgres';
import { migrateDatabase } from '@/server/tools/migrations/migrate-database';
import { freePort } from '@/server/platform/ports';
import { startProcess, TEST_NODE_FLAGS, type StartedProcess } from './start-server';

export interface TestDatabase {
  url: string;
  /** Its own DATA_DIR (blobs, generated secrets): set it wherever the database is used in-process too. */
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * The DATA_DIR that goes with a database of these tests. A database of its own needs a blob
 * directory of its own: sharing the main server's, its generations' inputs looked like inputs
 * leaked by refused requests to test/creations-images.test.ts (no generation row in the main
 * database), which failed a CI run.
 */
function dataDirFor(databaseUrl: string): string {
  const database = new URL(databaseUrl).pathname.slice(1);
  return path.resolve(import.meta.dirname, '..', '.data', 'test-databases', database);
}

/** A new, migrated database on the test cluster (so these processes share no queue with the main test server): a copy of the run's migrated template. */
export async function freshDatabase(name: string): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const database = `roomtone_${name}_${process.pid}`;
  await recreateDatabase(adminUrl, database, { template: inject('migratedTemplate') });
  const url = adminUrl.replace(/\/postgres$/, `/${database}`);
  await migrateDatabase(url); // a copy of the run's migrated template: nothing left to apply
  const dataDir = dataDirFor(url);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    url,
    dataDir,
    drop: async () => {
      await dropDatabase(adminUrl, database);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A started server or worker (killed with SIGKILL if a test forgets to stop it). */
export type TestProcess = StartedProcess;

/** Poll `fn` every 200 ms until it returns something truthy; fail after `timeoutMs`. */
export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * For a server whose file requests no console page, sign-in or console tRPC (only the API, MCP,
 * files, hooks, health): an API-only instance (CONSOLE_ENABLED=false, docs/configuration.md),
 * which never loads Next.js (about 0.5 CPU-seconds less a start). A file that uses the console leaves it out.
 */
export const API_ONLY = { CONSOLE_ENABLED: 'false' } as const;

/** Settings every process of these tests shares (as test/global-setup.ts gives the main server). */
function commonEnv(databaseUrl: string): Record<string, string> {
  return { DATABASE_URL: databaseUrl, DATA_DIR: dataDirFor(databaseUrl), SEED_DEMO: 'false', NODE_ENV: 'production', TRUST_PROXY: 'true', UPSCALE_METHOD: 'lanczos3', LOG_LEVEL: 'info' };
}

/** One production server (a single web process unless env says otherwise), healthy. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<TestProcess> {
  return startProcess({
    name: 'server',
    port: await freePort(),
    echoEnv: 'TEST_SERVER_LOGS',
    processes: 1,
    nodeFlags: TEST_NODE_FLAGS,
    env: { ...commonEnv(databaseUrl), SKIP_BUILD: '1', ...env },
  });
}

/** One `roomtone worker` process, running. */
export async function startWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<TestProcess> {
  return startProcess({
    name: 'roomtone worker',
    args: [...TEST_NODE_FLAGS, 'bin/roomtone.mjs', 'worker', '--json'],
    echoEnv: 'TEST_SERVER_LOGS',
    ready: (output) => output.includes('"status":"running"'),
    env: { ...commonEnv(databaseUrl), ...env },
  });
}
