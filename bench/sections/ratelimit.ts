/**
 * CPU cost of one request-rate hit per store (goal ≤ 0.1 ms of CPU per request
 * for the shared PostgreSQL counter). In process, through the real hitRateLimit: `inFlight`
 * hits at a time (10 ≈ the HTTP section's 10 connections; they batch into one statement per
 * event-loop turn), 1 = the worst case (one statement per hit). CPU of this process
 * (process.cpuUsage) and of the PostgreSQL cluster (/proc) per hit.
 */
import { fmt, markdownTable, treeCpuMs, type Section } from '../lib';
import { FixedWindowLimiter } from '@/server/limits/request-rate';
import { hitShared } from '@/server/limits/shared-counter';
import { closeDb } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';

interface Row {
  store: string;
  inFlight: number;
  hits: number;
  appCpuMsPerHit: number;
  dbCpuMsPerHit: number | null;
  wallMsPerHit: number;
}

export const rateLimitSection: Section = async (ctx) => {
  const database = await ctx.database();
  setEnv('DATABASE_URL', database.url);
  const rows: Row[] = [];
  for (const store of ['memory', 'postgres'] as const) {
    // The two stores behind hitRateLimit (which picks one per process).
    const limiter = new FixedWindowLimiter();
    const hitRateLimit = store === 'memory' ? (_: 'ip', key: string, limit: number) => limiter.hit(key, limit) : hitShared;
    for (const inFlight of [1, 10]) {
      const hits = store === 'memory' ? 200_000 : inFlight === 1 ? 3_000 : 20_000;
      let key = 0;
      const run = async (n: number) => {
        for (let sent = 0; sent < n; sent += inFlight) {
          await Promise.all(Array.from({ length: inFlight }, () => hitRateLimit('ip', `bench-${key++ % 500}`, 1_000_000)));
        }
      };
      await run(Math.min(hits, 1000)); // warm-up: statement prepared, pool connected
      const [db0] = treeCpuMs([database.postmasterPid]);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await run(hits);
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const [db1] = treeCpuMs([database.postmasterPid]);
      rows.push({
        store,
        inFlight,
        hits,
        appCpuMsPerHit: (cpu.user + cpu.system) / 1000 / hits,
        dbCpuMsPerHit: db0 != null && db1 != null ? (db1 - db0) / hits : null,
        wallMsPerHit: wall / hits,
      });
      ctx.log(`rate limit ${store} in flight ${inFlight}: ${fmt(rows.at(-1)!.appCpuMsPerHit, 4)} ms CPU/hit`);
    }
  }
  await closeDb();
  const markdown = [
    '### Request-rate counters: CPU per hit',
    '',
    'In process through `hitRateLimit`, 500 subjects; "in flight" hits at a time (they batch into one statement per event-loop turn). Each /v1 request makes one hit (unauthenticated) or two (per IP, then per organization).',
    '',
    markdownTable(
      ['store', 'in flight', 'hits', 'app CPU ms/hit', 'PostgreSQL CPU ms/hit', 'wall ms/hit'],
      rows.map((r) => [r.store, String(r.inFlight), String(r.hits), fmt(r.appCpuMsPerHit, 4), r.dbCpuMsPerHit === null ? '–' : fmt(r.dbCpuMsPerHit, 4), fmt(r.wallMsPerHit, 4)]),
    ),
  ].join('\n');
  return { markdown, raw: rows, failures: [] };
};
