// @node-lines same: node-postgres's pool settings against PostgreSQL; the database client runs under both lines in every integration file of that pass
// @worker-process shared: this process's database pool under fake timers, both given back after each test, and the pool setting it changes given back after the file; it starts no server or process
/**
 * The connection pool keeps idle connections for DATABASE_POOL_IDLE_MS (default 5 minutes), not
 * node-postgres's 10 s: with 10 s, traffic after a lull of 10 s opens its connections again
 * (a backend fork and an authentication each, in the requests' path), and that is the whole
 * tail of the bench's evenly paced reads. A fake clock moves the pool's idle timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeDb, poolStats, sql } from '@/server/platform/db';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import { environmentForThisFile } from './file-environment';

environmentForThisFile();

afterEach(async () => {
  vi.useRealTimers();
  await closeDb();
  resetConfigCache();
});

async function openIdleConnection(): Promise<void> {
  await closeDb();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  await sql('select 1', []);
  expect(poolStats()).toMatchObject({ total: 1, idle: 1 });
}

describe('the database pool', () => {
  it('keeps an idle connection past 10 s and closes it after 5 minutes by default', async () => {
    await openIdleConnection();
    vi.advanceTimersByTime(60_000);
    expect(poolStats()).toMatchObject({ total: 1, idle: 1 });
    vi.advanceTimersByTime(240_000);
    expect(poolStats()).toMatchObject({ total: 0, idle: 0 });
  });

  it('closes an idle connection after DATABASE_POOL_IDLE_MS', async () => {
    setEnv('DATABASE_POOL_IDLE_MS', '2000');
    await openIdleConnection();
    vi.advanceTimersByTime(1_999);
    expect(poolStats()).toMatchObject({ total: 1 });
    vi.advanceTimersByTime(1);
    expect(poolStats()).toMatchObject({ total: 0 });
  });
});
