/**
 * With RATE_LIMIT_STORE=postgres, two instances (separate processes, separate
 * pools) on one database enforce a limit exactly, and the server itself counts in PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { api, testIp } from './support';
import { inject } from 'vitest';
import { db } from '@/server/platform/db';
import type { RateDecision } from '@/server/limits/request-rate';

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
  it('two instances on one database allow exactly the limit between them', async () => {
    const key = `shared-${testIp()}-${Date.now()}`;
    const [a, b] = await Promise.all([instance(key, 600, 400), instance(key, 600, 400)]);
    const all = [...a, ...b];
    const allowed = all.filter((d) => d.allowed);
    expect(allowed.length).toBe(600);
    expect(all.filter((d) => !d.allowed).length).toBe(200);
    // Every allowed hit saw a distinct count: remaining takes each value 0..599 once.
    expect(new Set(allowed.map((d) => d.remaining)).size).toBe(600);
    expect(Math.min(...allowed.map((d) => d.remaining))).toBe(0);
    for (const d of all) {
      expect(d.limit).toBe(600);
      expect(d.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(d.resetSeconds).toBeLessThanOrEqual(60);
    }
    const row = await db().rateLimitCounter.findUniqueOrThrow({ where: { subject: `ip:${key}` } });
    expect(row.count).toBe(600);
  }, 240_000);

  it("the server's per-IP counter is a row in the database (auto: an external DATABASE_URL means postgres)", async () => {
    const ip = testIp();
    expect((await api('/v1/styles', { ip })).status).toBe(401);
    expect((await api('/v1/styles', { ip })).status).toBe(401);
    const row = await db().rateLimitCounter.findUniqueOrThrow({ where: { subject: `ip:${ip}` } });
    expect(row.count).toBe(2);
  });
});
