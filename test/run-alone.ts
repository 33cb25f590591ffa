/**
 * Integration files can run several at a time against the one test server (VITEST_MAX_WORKERS;
 * vitest.config.ts). A few cannot share it with other files and run alone: while any
 * integration file runs it holds a shared PostgreSQL advisory lock on the test cluster, and the
 * files listed here take that lock exclusively. PostgreSQL queues a waiting exclusive request
 * ahead of later shared ones, so they are never starved; they just wait for the files in flight.
 * Loaded by the integration project as a setup file (before each file's own hooks). The files
 * and their reasons are in vitest.config.ts (ALONE), which also orders them (AloneFirstSequencer).
 */
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
/** Any constant: the key of the lock every integration file takes. */
const LOCK_KEY = 7_204_418_113;
/** Held by the files that listen on port 443 (vitest.config.ts, PORT_443), one at a time. */
const PORT_443_LOCK_KEY = 7_204_418_443;
/** Waiting for the files in flight (minutes on a loaded machine) is not the file's own time. */
const LOCK_WAIT_MS = 60 * 60_000;

let client: pg.Client | null = null;

// vitest reads the first argument as fixtures and wants a pattern; only the file is needed.
beforeAll(async ({}, suite) => {
  const relative = path.relative(root, suite.file.filepath).split(path.sep).join('/');
  const alone = inject('aloneFiles').includes(relative);
  client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  await client.query(alone ? 'select pg_advisory_lock($1)' : 'select pg_advisory_lock_shared($1)', [LOCK_KEY]);
  if (inject('port443Files').includes(relative)) await client.query('select pg_advisory_lock($1)', [PORT_443_LOCK_KEY]);
}, LOCK_WAIT_MS);

afterAll(async () => {
  // Closing the session releases the lock.
  await client?.end();
  client = null;
});

declare module 'vitest' {
  export interface ProvidedContext {
    /** Integration files that run alone (vitest.config.ts). */
    aloneFiles: string[];
    /** Integration files that listen on port 443 and so take turns (vitest.config.ts). */
    port443Files: string[];
  }
}
