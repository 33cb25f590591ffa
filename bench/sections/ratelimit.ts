/**
 * CPU cost of one request-rate hit per store, in process, through the limiter each store uses:
 *  - memory, exact: one process's own counters (a single web process);
 *  - memory, leased: slices leased from counters held elsewhere (the primary of `npm start`'s
 *    web processes; here in the same process, so the IPC message per slice is not included);
 *  - postgres, leased: slices leased from the database (one statement per slice).
 * `inFlight` hits at a time (10 ≈ the HTTP section's 10 connections), 500 subjects in turn.
 * CPU of this process (process.cpuUsage) and of the PostgreSQL cluster (/proc) per hit, and
 * how many lease round trips the hits needed.
 */
import { fmt, markdownTable, treeCpuMs, type Section } from '../lib';
import { FixedWindowLimiter, type LimiterName, type RateDecision } from '@/server/capabilities/limits/fixed-window';
import { LeasedLimiter, type LeaseSource } from '@/server/capabilities/limits/leased-limiter';
import { leaseShared } from '@/server/capabilities/limits/shared-counter';
import { closeDb } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';

interface Row {
  store: string;
  inFlight: number;
  hits: number;
  leases: number;
  appCpuMsPerHit: number;
  dbCpuMsPerHit: number | null;
  wallMsPerHit: number;
}

type Hit = (limiter: LimiterName, key: string, limit: number) => RateDecision | Promise<RateDecision>;

export const rateLimitSection: Section = async (ctx) => {
  const database = await ctx.database();
  setEnv('DATABASE_URL', database.url);
  const rows: Row[] = [];
  const fallback = () => ({ ip: new FixedWindowLimiter(), org: new FixedWindowLimiter(), key: new FixedWindowLimiter() });
  const counting = (source: LeaseSource) => {
    const counter = { leases: 0 };
    const counted: LeaseSource = (requests) => {
      counter.leases += 1;
      return source(requests);
    };
    return { counter, counted };
  };
  const stores: { name: string; make: () => { hit: Hit; leases: () => number } }[] = [
    {
      name: 'memory, exact (one process)',
      make: () => {
        const exact = fallback();
        return { hit: (limiter, key, limit) => exact[limiter].hit(key, limit), leases: () => 0 };
      },
    },
    {
      name: 'memory, leased from the primary (IPC not included)',
      make: () => {
        const primary = fallback();
        const { counter, counted } = counting(async (requests) => requests.map((r) => primary[r.limiter].lease(r.key, r.want, r.limit)));
        const leased = new LeasedLimiter(counted, fallback(), 'bench');
        return { hit: (limiter, key, limit) => leased.hit(limiter, key, limit), leases: () => counter.leases };
      },
    },
    {
      name: 'postgres, leased',
      make: () => {
        const { counter, counted } = counting(leaseShared);
        const leased = new LeasedLimiter(counted, fallback(), 'bench');
        return { hit: (limiter, key, limit) => leased.hit(limiter, key, limit), leases: () => counter.leases };
      },
    },
  ];
  let run = 0;
  for (const store of stores) {
    for (const inFlight of [1, 10]) {
      const { hit, leases } = store.make();
      const hits = 200_000;
      // Fresh subjects per row: a window another row filled would not be measured.
      const prefix = `bench-${run++}-${Date.now()}`;
      let key = 0;
      const load = async (n: number) => {
        for (let sent = 0; sent < n; sent += inFlight) {
          await Promise.all(Array.from({ length: inFlight }, () => hit('ip', `${prefix}-${key++ % 500}`, 100_000_000)));
        }
      };
      await load(10_000); // warm-up: statement prepared, pool connected, slices at their size
      const leases0 = leases();
      const [db0] = treeCpuMs([database.postmasterPid]);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await load(hits);
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const [db1] = treeCpuMs([database.postmasterPid]);
      rows.push({
        store: store.name,
        inFlight,
        hits,
        leases: leases() - leases0,
        appCpuMsPerHit: (cpu.user + cpu.system) / 1000 / hits,
        dbCpuMsPerHit: db0 != null && db1 != null ? (db1 - db0) / hits : null,
        wallMsPerHit: wall / hits,
      });
      ctx.log(`rate limit ${store.name}, in flight ${inFlight}: ${fmt(rows.at(-1)!.appCpuMsPerHit, 4)} ms CPU/hit, ${rows.at(-1)!.leases} leases`);
    }
  }
  await closeDb();
  const markdown = [
    '### Request-rate counters: CPU per hit',
    '',
    'In process, through the limiter of each store; 500 subjects in turn, "in flight" hits at a time. Each /v1 request makes one hit (unauthenticated) or two (per IP, then per organization). Leases: round trips to the store (one IPC message or one statement each, for the lease requests of one event-loop turn).',
    '',
    markdownTable(
      ['store', 'in flight', 'hits', 'leases', 'app CPU ms/hit', 'PostgreSQL CPU ms/hit', 'wall ms/hit'],
      rows.map((r) => [r.store, String(r.inFlight), String(r.hits), String(r.leases), fmt(r.appCpuMsPerHit, 4), r.dbCpuMsPerHit === null ? '–' : fmt(r.dbCpuMsPerHit, 4), fmt(r.wallMsPerHit, 4)]),
    ),
  ].join('\n');
  return { markdown, raw: rows, failures: [] };
};
