// @node-lines same: our leases of the rate allowance in PostgreSQL; child processes run under both lines in test/worker.test.ts, IPC in src/server/capabilities/limits/request-rate.test.ts
// @worker-process shared: two child processes it waits for, on the shared database; it starts no server and sets no environment
/**
 * With RATE_LIMIT_STORE=postgres, instances (separate processes, separate pools) on one
 * database lease slices of each window's allowance: never more than the limit between them,
 * refused only once the database has granted all of it, and the server itself leases there.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { api, testIp } from './support';
import { inject } from 'vitest';
import { db } from '@/server/platform/db';
import type { RateDecision } from '@/server/capabilities/limits/request-rate';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');

function instance(key: string, limit: number, hits: number): Promise<RateDecision[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), path.join(root, 'test/helpers/rate-hits.ts'), key, String(limit), String(hits)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: inject('databaseUrl'), RATE_LIMIT_STORE: 'postgres', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as RateDecision[]) : reject(new Error(`instance exited with ${code}`))));
  });
}

describe('shared rate-limit counters in PostgreSQL', () => {
  it('two instances on one database never allow more than the limit between them, and refuse only once it is all granted', async () => {
    const key = `shared-${testIp()}-${Date.now()}`;
    const [a, b] = await Promise.all([instance(key, 600, 400), instance(key, 600, 400)]);
    const all = [...a, ...b];
    const allowed = all.filter((d) => d.allowed);
    expect(allowed.length).toBeLessThanOrEqual(600);
    // Refused early at most what the other instance holds unspent: one slice, a quarter of the limit at most.
    expect(allowed.length).toBeGreaterThanOrEqual(600 - 150);
    expect(Math.min(...allowed.map((d) => d.remaining))).toBe(0);
    for (const d of all) {
      expect(d.limit).toBe(600);
      expect(d.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(d.resetSeconds).toBeLessThanOrEqual(60);
    }
    // Every hit of the limit was granted before the first refusal.
    const row = await db().rateLimitCounter.findUniqueOrThrow({ where: { subject: `ip:${key}` } });
    expect(row.count).toBe(600);
  }, 240_000);

  it("the server's per-IP allowance is leased from the database (auto: an external DATABASE_URL means postgres)", async () => {
    const ip = testIp();
    expect((await api('/v1/styles', { ip })).status).toBe(401);
    expect((await api('/v1/styles', { ip })).status).toBe(401);
    const row = await db().rateLimitCounter.findUniqueOrThrow({ where: { subject: `ip:${ip}` } });
    // Granted to the server's processes: at least the two hits, at most a quarter of the 600 a slice.
    expect(row.count).toBeGreaterThanOrEqual(2);
    expect(row.count).toBeLessThanOrEqual(150 + 150);
  });
});
