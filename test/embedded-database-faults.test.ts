// @node-lines same: our recovery from the embedded PostgreSQL's faults; the launcher's processes run under both lines in test/worker.test.ts
/**
 * The zero-setup database under faults, on `npm start` with no DATABASE_URL (the embedded
 * PostgreSQL, started and supervised by the launcher's primary, two web processes):
 *  - paused (SIGSTOP on the postmaster and its backends: it neither answers nor refuses): a
 *    request answers 503 service_unavailable with Retry-After within the statement timeout, and
 *    /readyz answers not_ready at once; resumed, the service is ready again;
 *  - killed (SIGKILL): the supervisor starts it again on the same port, /readyz and /metrics
 *    report the restart, and the service heals without a restart of its own;
 *  - killed and started again by another process: the service heals on that cluster, and
 *    SIGTERM still stops `npm start` (its shutdown does not wait on a postmaster already gone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@/server/platform/embedded-postgres';
import { closeDb } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';
import { timeoutSignal } from '@/server/platform/deadline';
import { freePort } from '@/server/platform/ports';
import { api, createTestOrg, testIp, type TestOrg } from './support';
import { startProcess, TEST_NODE_FLAGS, type StartedProcess } from './start-server';
import { API_ONLY, waitFor } from './server-processes';

const ip = testIp();
const dataDir = path.resolve(import.meta.dirname, '..', '.data', `test-embedded-faults-${process.pid}`);
const METRICS_TOKEN = 'roomtone-embedded-faults-metrics-token-01';
const STATEMENT_TIMEOUT_MS = 2_000;
let server: StartedProcess;
let org: TestOrg;
let record: { port: number; clusterDir: string };
/** A cluster this test started from outside the service (stopped at the end). */
let outside: EmbeddedDatabase | null = null;

function postmasterPid(): number {
  return Number(fs.readFileSync(path.join(record.clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** The postmaster and its children (the backends serving the pool's connections). */
function clusterProcesses(postmaster: number): number[] {
  const pids = [postmaster];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

async function readyz(): Promise<{ status: number; elapsedMs: number; body: { status: string; checks: Record<string, unknown>; embedded_database?: { state: string; restarts: number; last_exit: string | null } } }> {
  const started = Date.now();
  const res = await fetch(`${server.url}/readyz`, { signal: timeoutSignal(20_000) });
  return { status: res.status, elapsedMs: Date.now() - started, body: (await res.json()) as never };
}

const read = () => api('/v1/generations?limit=1', { base: server.url, key: org.testKey, ip });

beforeAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  const env: Record<string, string> = {
    ...API_ONLY,
    DATA_DIR: dataDir,
    SKIP_BUILD: '1',
    NODE_ENV: 'production',
    TRUST_PROXY: 'true',
    SEED_DEMO: 'false',
    METRICS_TOKEN,
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    DATABASE_ACQUIRE_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    DATABASE_URL: '', // the embedded one
    LOG_LEVEL: 'info',
  };
  server = await startProcess({ name: 'server (embedded database)', port: await freePort(), processes: 2, nodeFlags: TEST_NODE_FLAGS, echoEnv: 'TEST_SERVER_LOGS', env, stopTimeoutMs: 30_000 });
  record = JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as typeof record & { user: string; password: string };
  const { user, password } = record as unknown as { user: string; password: string };
  setEnv('DATABASE_URL', `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${record.port}/roomtone`);
  setEnv('DATA_DIR', dataDir);
  org = await createTestOrg();
}, 600_000);

afterAll(async () => {
  await server?.kill();
  await closeDb();
  await outside?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe('the embedded PostgreSQL', () => {
  it('paused: a request answers 503 service_unavailable with Retry-After within the statement timeout, /readyz not_ready promptly; resumed, ready again', async () => {
    expect((await read()).status).toBe(200);
    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { database: true, storage: true }, embedded_database: { state: 'running', restarts: 0 } });

    const paused = clusterProcesses(postmasterPid());
    for (const pid of paused) process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const res = await read();
      const elapsed = Date.now() - started;
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: { code: 'service_unavailable', message: expect.any(String) } });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // The statement timeout (or the acquire timeout) ended the wait, not the database.
      expect(elapsed).toBeLessThan(3 * STATEMENT_TIMEOUT_MS + 2_000);

      const notReady = await readyz();
      expect(notReady.status).toBe(503);
      expect(notReady.body).toMatchObject({ status: 'not_ready', checks: { database: false } });
      expect(notReady.elapsedMs).toBeLessThan(5_000);
    } finally {
      for (const pid of paused) process.kill(pid, 'SIGCONT');
    }
    await waitFor('/readyz ready after the pause', async () => (await readyz()).status === 200, 60_000);
    expect((await read()).status).toBe(200);
    expect(server.alive()).toBe(true);
  }, 120_000);

  it('killed: restarted on the same port by the supervisor, logged, in /readyz and /metrics; the service heals without a restart', async () => {
    const before = postmasterPid();
    process.kill(before, 'SIGKILL');
    await waitFor('the supervisor to restart the cluster', async () => {
      const ready = await readyz();
      return ready.status === 200 && ready.body.embedded_database?.restarts === 1;
    }, 120_000);
    const ready = await readyz();
    expect(ready.body.embedded_database).toEqual({ state: 'running', restarts: 1, last_exit: 'signal SIGKILL' });
    expect(postmasterPid()).not.toBe(before);
    expect(server.output()).toContain('"msg":"embedded PostgreSQL exited; restarting it"');
    expect(server.output()).toContain('"msg":"embedded PostgreSQL restarted"');

    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^roomtone_embedded_database_restarts_total 1$/m);
    expect(text).toMatch(/^roomtone_embedded_database_state\{state="running"\} 1$/m);

    await closeDb(); // this process's pool held connections to the killed cluster
    await waitFor('reads to answer 200 again', async () => (await read()).status === 200, 60_000);
    expect(server.alive()).toBe(true);
  }, 180_000);

  it('killed and started again from outside: the service heals on it, and SIGTERM still stops npm start', async () => {
    const killed = postmasterPid();
    process.kill(killed, 'SIGKILL');
    // Another process (an operator's command, another Roomtone process on this DATA_DIR) starts
    // the cluster again on the same port, racing the supervisor's first restart.
    await waitFor('the cluster to be started from outside (or by the supervisor first)', async () => {
      try {
        outside = await startEmbeddedPostgres(dataDir, { port: record.port });
        return true;
      } catch {
        return false; // the killed backends still hold its shared memory: again
      }
    }, 60_000);
    // `external` once the supervisor finds it started by this test (watched, not stopped by the
    // service); `running` if the supervisor's own start won the race.
    await waitFor('/readyz ready on the restarted cluster, the supervisor settled', async () => {
      const ready = await readyz();
      return ready.status === 200 && ['external', 'running'].includes(ready.body.embedded_database?.state ?? '');
    }, 120_000);
    await closeDb();
    await waitFor('reads to answer 200 again', async () => (await read()).status === 200, 60_000);

    const stopping = Date.now();
    const code = await server.stop(); // SIGTERM; SIGKILL (exit code null) after 30 s
    expect(code).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(30_000);
  }, 240_000);
});
