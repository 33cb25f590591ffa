/**
 * HTTP read path: Roomtone (the production server, `scripts/start.ts`) against a framework-free
 * baseline (bench/baseline-server.ts) over the same database, same data, same key.
 *   A) GET /v1/generations/{id}   (rotating over 200 ids of all types and statuses)
 *   B) GET /v1/generations?limit=20
 * After one start-up warm-up of each freshly started server (BENCH_STARTUP_WARMUP s, default 5),
 * per scenario: a 2 s warm-up of each target, then `repeats` alternating pairs (baseline,
 * roomtone, ...), one target loaded at a time; medians reported. Then the latency goal:
 * Roomtone at 50 % of the baseline's median throughput, with autocannon's overallRate and
 * with an evenly paced open-loop client (see runPaced for why both).
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { ensureProductionBuild } from '@/server/platform/build';
import { resetConfigCache } from '@/server/platform/config';
import { seedBenchData, type BenchFixtures } from '../fixtures';
import {
  BENCH_APP_SECRET,
  envNumber,
  treeCpuMs,
  ROOT,
  fmt,
  freePort,
  markdownTable,
  median,
  runAutocannon,
  runPaced,
  startChildServer,
  serverNodeFlags,
  startRoomtoneServer,
  type BenchContext,
  type ChildServer,
  type LoadFigures,
  type PacedFigures,
  type SectionOutput,
} from '../lib';

const THROUGHPUT_GOAL = 0.5;
const P99_GOAL_MS = 50;

interface Scenario {
  key: 'A' | 'B';
  title: string;
  paths: (fixtures: BenchFixtures) => string[];
}

const SCENARIOS: Scenario[] = [
  {
    key: 'A',
    title: 'GET /v1/generations/{id}',
    // Every 10th id: 200 ids spread over types and statuses (the succeeded 60 % sign an output URL).
    paths: (f) => f.generationIds.filter((_, i) => i % 10 === 0).map((id) => `/v1/generations/${id}`),
  },
  { key: 'B', title: 'GET /v1/generations?limit=20', paths: () => ['/v1/generations?limit=20'] },
];

/** One autocannon run plus CPU time per request of each side (from /proc; NaN elsewhere). */
type Run = LoadFigures & { cpuMsPerRequest: { server: number; postgres: number; loadGenerator: number } };

interface Summary {
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  serverCpuMs: number;
  postgresCpuMs: number;
}

interface ScenarioResult {
  scenario: string;
  title: string;
  runs: { baseline: Run[]; roomtone: Run[] };
  median: { baseline: Summary; roomtone: Summary; ratio: number };
  atHalfLoad: { rate: number; autocannon: Run; paced: PacedFigures; pacedBaseline: PacedFigures; pacedRuns: { roomtone: PacedFigures[]; baseline: PacedFigures[] } };
}

/** The run whose p99 is the median (its p50 and rate come with it). */
function medianRunByP99(runs: PacedFigures[]): PacedFigures {
  const sorted = [...runs].sort((a, b) => a.p99 - b.p99);
  return sorted[Math.floor((sorted.length - 1) / 2)] as PacedFigures;
}

function summarise(runs: Run[]): Summary {
  return {
    reqPerSec: median(runs.map((r) => r.reqPerSec)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    serverCpuMs: median(runs.map((r) => r.cpuMsPerRequest.server)),
    postgresCpuMs: median(runs.map((r) => r.cpuMsPerRequest.postgres)),
  };
}

/** Same object from both servers (URLs and their expiry aside: they are signed per read). */
async function compareResponses(roomtone: ChildServer, baseline: ChildServer, key: string, paths: string[]): Promise<string[]> {
  const problems: string[] = [];
  const normalise = (body: unknown): string =>
    JSON.stringify(body, (k, v: unknown) => (k === 'url' || k === 'url_expires_at' ? '<signed>' : v));
  for (const p of paths) {
    const [a, b] = await Promise.all(
      [roomtone, baseline].map(async (s) => {
        const res = await fetch(`${s.url}${p}`, { headers: { authorization: `Bearer ${key}` } });
        return { status: res.status, body: normalise(await res.json()) };
      }),
    );
    if (!a || !b || a.status !== 200 || b.status !== 200) problems.push(`${p}: status roomtone ${a?.status} / baseline ${b?.status}`);
    else if (a.body !== b.body) problems.push(`${p}: bodies differ\n  roomtone ${a.body.slice(0, 600)}\n  baseline ${b.body.slice(0, 600)}`);
  }
  return problems;
}

/** A server that died mid-run makes every later figure meaningless: stop with its output. */
function assertAlive(server: ChildServer): void {
  if (!server.alive()) throw new Error(`${server.name} server died during the run\n--- its output ---\n${server.output().slice(-6000)}`);
}

export async function httpSection(ctx: BenchContext): Promise<SectionOutput> {
  const { settings } = ctx;
  const database = await ctx.database();

  const started = performance.now();
  ensureProductionBuild(ROOT);
  ctx.log(`production build ready (${fmt((performance.now() - started) / 1000, 1)} s)`);

  // The port first: signed URLs embed PUBLIC_BASE_URL, and this process computes them too.
  const roomtonePort = await freePort();
  process.env.PUBLIC_BASE_URL = `http://127.0.0.1:${roomtonePort}`;
  resetConfigCache();
  const seedStarted = performance.now();
  const fixtures = await seedBenchData();
  ctx.log(
    `seeded ${fixtures.counts.generations} generations (${fixtures.counts.withOutput} with a stored output) + ${fixtures.counts.otherOrg} of another org in ${fmt(performance.now() - seedStarted)} ms`,
  );

  const require = createRequire(import.meta.url);
  const baselinePort = await freePort();
  const baseline = await startChildServer({
    name: 'baseline',
    args: [require.resolve('tsx/cli'), path.join(ROOT, 'bench/baseline-server.ts')],
    port: baselinePort,
    env: {
      PORT: String(baselinePort),
      DATABASE_URL: database.url,
      APP_SECRET: BENCH_APP_SECRET,
      // Same URLs as Roomtone's, so both bodies are byte-comparable.
      PUBLIC_BASE_URL: `http://127.0.0.1:${roomtonePort}`,
      NODE_ENV: 'production',
    },
  });
  ctx.cleanup.add('baseline server', () => baseline.stop());
  const roomtone = await startRoomtoneServer({ port: roomtonePort, databaseUrl: database.url, nodeFlags: serverNodeFlags(ctx) });
  ctx.cleanup.add('roomtone server', () => roomtone.stop());
  ctx.log(`servers up: roomtone ${roomtone.url} (pid ${roomtone.pid}), baseline ${baseline.url} (pid ${baseline.pid})`);

  const failures: string[] = [];
  const checkPaths = [
    ...fixtures.withOutputIds.slice(0, 3).map((id) => `/v1/generations/${id}`),
    ...fixtures.generationIds.slice(0, 4).map((id) => `/v1/generations/${id}`),
    '/v1/generations?limit=20',
  ];
  const mismatches = await compareResponses(roomtone, baseline, fixtures.testKey, checkPaths);
  if (mismatches.length > 0) failures.push(`baseline and roomtone responses differ:\n${mismatches.join('\n')}`);

  const headers = { authorization: `Bearer ${fixtures.testKey}` };
  const targets = { baseline, roomtone } as const;
  const results: ScenarioResult[] = [];

  // A fresh process runs cold (lazy module loading, unoptimised JIT): the first scenario would
  // pay for it, the second not. One untimed pass over every route first, for both servers.
  const startupWarmupSec = envNumber('BENCH_STARTUP_WARMUP', 5);
  const allPaths = SCENARIOS.flatMap((sc) => sc.paths(fixtures));
  for (const name of ['baseline', 'roomtone'] as const) {
    ctx.log(`${name}: start-up warm-up ${startupWarmupSec} s`);
    await runAutocannon({ url: targets[name].url, headers, paths: allPaths, connections: settings.connections, durationSec: startupWarmupSec });
    assertAlive(targets[name]);
  }

  for (const scenario of SCENARIOS) {
    const paths = scenario.paths(fixtures);
    const load = async (server: ChildServer, durationSec: number, overallRate?: number): Promise<Run> => {
      const [server0, pg0] = treeCpuMs([server.pid, database.postmasterPid]);
      const client0 = process.cpuUsage();
      const figures = await runAutocannon({ url: server.url, headers, paths, connections: settings.connections, durationSec, ...(overallRate ? { overallRate } : {}) });
      const client1 = process.cpuUsage(client0);
      const [server1, pg1] = treeCpuMs([server.pid, database.postmasterPid]);
      assertAlive(server);
      const perRequest = (a: number | null | undefined, b: number | null | undefined) =>
        a == null || b == null || figures.requests === 0 ? Number.NaN : (b - a) / figures.requests;
      return {
        ...figures,
        cpuMsPerRequest: {
          server: perRequest(server0, server1),
          postgres: perRequest(pg0, pg1),
          loadGenerator: (client1.user + client1.system) / 1000 / Math.max(1, figures.requests),
        },
      };
    };

    for (const name of ['baseline', 'roomtone'] as const) {
      ctx.log(`${scenario.key} ${name}: warm-up ${settings.warmupSec} s`);
      await load(targets[name], settings.warmupSec);
    }
    const runs: ScenarioResult['runs'] = { baseline: [], roomtone: [] };
    for (let i = 0; i < settings.repeats; i++) {
      for (const name of ['baseline', 'roomtone'] as const) {
        const figures = await load(targets[name], settings.durationSec);
        runs[name].push(figures);
        ctx.log(
          `${scenario.key} ${name} run ${i + 1}/${settings.repeats}: ${fmt(figures.reqPerSec)} req/s, p50 ${fmt(figures.p50, 1)} ms, p99 ${fmt(figures.p99, 1)} ms, ` +
            `non-2xx ${figures.non2xx}, errors ${figures.errors}; CPU ms/req server ${fmt(figures.cpuMsPerRequest.server, 2)}, postgres ${fmt(figures.cpuMsPerRequest.postgres, 2)}, load generator ${fmt(figures.cpuMsPerRequest.loadGenerator, 2)}`,
        );
        if (figures.non2xx > 0 || figures.errors > 0) {
          failures.push(
            `${scenario.key} ${name} run ${i + 1}: ${figures.non2xx} non-2xx and ${figures.errors} errors (status codes ${JSON.stringify(figures.statusCodes)})`,
          );
        }
      }
    }
    const b = summarise(runs.baseline);
    const r = summarise(runs.roomtone);

    const rate = Math.max(1, Math.round(b.reqPerSec * 0.5));
    ctx.log(`${scenario.key} roomtone at ${rate} req/s (50 % of baseline): autocannon overallRate`);
    const autocannonHalf = await load(roomtone, settings.durationSec, rate);
    // Evenly paced, Roomtone and (control) the baseline at the same rate, alternating: the
    // control shows what the machine itself adds (stalls of a shared VM, the client), so a
    // Roomtone p99 close to it is the machine's. Reported: the run with the median p99.
    const pacedRuns: { roomtone: PacedFigures[]; baseline: PacedFigures[] } = { roomtone: [], baseline: [] };
    for (let i = 0; i < settings.repeats; i++) {
      for (const name of ['roomtone', 'baseline'] as const) {
        const f = await runPaced({ url: targets[name].url, headers, paths, connections: settings.connections, durationSec: settings.durationSec, overallRate: rate });
        assertAlive(targets[name]);
        pacedRuns[name].push(f);
        ctx.log(`${scenario.key} ${name} at ${rate} req/s, evenly paced, run ${i + 1}/${settings.repeats}: p50 ${fmt(f.p50, 1)} ms, p99 ${fmt(f.p99, 1)} ms, ${fmt(f.achievedRate)} req/s achieved`);
      }
    }
    const paced = medianRunByP99(pacedRuns.roomtone);
    const pacedBaseline = medianRunByP99(pacedRuns.baseline);
    for (const [label, f] of [['overallRate', autocannonHalf], ...pacedRuns.roomtone.map((run) => ['paced', run] as const)] as const) {
      if (f.non2xx > 0 || f.errors > 0) failures.push(`${scenario.key} roomtone at 50 % load (${label}): ${f.non2xx} non-2xx, ${f.errors} errors`);
    }
    results.push({
      scenario: scenario.key,
      title: scenario.title,
      runs,
      median: { baseline: b, roomtone: r, ratio: r.reqPerSec / b.reqPerSec },
      atHalfLoad: { rate, autocannon: autocannonHalf, paced, pacedBaseline, pacedRuns },
    });
  }

  return {
    markdown: render(results, settings, fixtures),
    raw: { settings, fixtures: fixtures.counts, servers: { roomtone: roomtone.url, baseline: baseline.url }, scenarios: results },
    failures,
  };
}

function render(results: ScenarioResult[], settings: BenchContext['settings'], fixtures: BenchFixtures): string {
  const verdict = (ok: boolean) => (ok ? 'PASS' : '**MISS**');
  const cells = (m: Summary) => [fmt(m.reqPerSec), fmt(m.p50, 1), fmt(m.p99, 1), String(m.non2xx), fmt(m.serverCpuMs, 2), fmt(m.postgresCpuMs, 2)];
  const main = markdownTable(
    ['Scenario', 'Target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'server CPU ms/req', 'PostgreSQL CPU ms/req', 'Roomtone / baseline'],
    results.flatMap((s) => [
      [`${s.scenario}: \`${s.title}\``, 'baseline', ...cells(s.median.baseline), ''],
      ['', 'roomtone', ...cells(s.median.roomtone), `${fmt(s.median.ratio, 2)}× req/s`],
    ]),
  );
  const latency = (f: { p50: number; p99: number }, achieved: number, unanswered = 0) =>
    `p50 ${fmt(f.p50, 1)} / p99 ${fmt(f.p99, 1)} ms (${fmt(achieved)} req/s achieved${unanswered > 0 ? `, ${fmt(unanswered)} unanswered at cut-off` : ''})`;
  const goals = markdownTable(
    ['Scenario', 'Goal', 'Measured', 'Result'],
    results.flatMap((s) => {
      const { rate, paced, autocannon: bursty, pacedBaseline } = s.atHalfLoad;
      return [
        [s.scenario, `throughput ≥ ${THROUGHPUT_GOAL} × baseline`, `${fmt(s.median.ratio, 2)}×`, verdict(s.median.ratio >= THROUGHPUT_GOAL)],
        [s.scenario, `p99 < ${P99_GOAL_MS} ms at ${fmt(rate)} req/s (50 % of baseline), evenly paced`, latency(paced, paced.achievedRate, paced.unfinished), verdict(paced.p99 < P99_GOAL_MS)],
        [s.scenario, `p99 < ${P99_GOAL_MS} ms at ${fmt(rate)} req/s (50 % of baseline), autocannon overallRate`, latency(bursty, bursty.reqPerSec), verdict(bursty.p99 < P99_GOAL_MS)],
        [s.scenario, `control: the baseline at ${fmt(rate)} req/s, evenly paced`, latency(pacedBaseline, pacedBaseline.achievedRate, pacedBaseline.unfinished), '(machine and client)'],
      ];
    }),
  );
  return [
    '### HTTP read path: Roomtone vs a framework-free baseline',
    '',
    `${settings.connections} connections, ${settings.durationSec} s per run after a ${settings.warmupSec} s warm-up, median of ${settings.repeats} alternating runs per target; ` +
      `${fixtures.counts.generations} generations (${fixtures.counts.withOutput} with a signed output) in one tier-9 organization. ` +
      'Baseline: node:http + pg, same queries, same JSON (bench/baseline-server.ts). Latencies: every 2xx response time, exact. ' +
      'CPU ms/req: user+system CPU of the server\'s process tree and of the PostgreSQL cluster per completed request (/proc), steadier than req/s on a shared machine.',
    '',
    main,
    '',
    '#### Goals',
    '',
    goals,
    '',
    `Evenly paced: one request every 1/rate s, latency counted from its due time (queueing included); requests still unanswered 5 s after the last was due are cut off and counted at their age; ${settings.repeats} runs alternating with the baseline at the same rate (control), the run with the median p99 shown. ` +
      'autocannon overallRate: each connection sends its per-second quota back to back at the top of every second, so "50 % load" is full load half of the time, and a rate the server cannot reach degrades to a closed loop.',
  ].join('\n');
}
