/**
 * Figures for the README: time to first render (first contentful paint) and to interactive (the
 * page's data rendered by the hydrated app) of the overview and request-log pages, on the
 * production build with 1 M request-log rows in the demo organization's test mode; and the
 * latency of one log page through /api/trpc. Median of repeated loads in one signed-in tab.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { signInWithPassword, test } from '../fixtures';
import { FIGURES, type PageFigures } from './console-figures';

const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const OUT = path.resolve(import.meta.dirname, '../../test-results/console-pages.json');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
}

async function seedLog(dataDir: string, organizationId: string): Promise<void> {
  const record = JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as { port: number; user: string; password: string; database: string };
  const client = new pg.Client({ host: '127.0.0.1', port: record.port, user: record.user, password: record.password, database: record.database });
  await client.connect();
  try {
    const key = await client.query<{ id: string }>(`select id from "ApiKey" where "organizationId" = $1 and mode = 'test' limit 1`, [organizationId]);
    const batch = 100_000;
    for (let start = 0; start < ROWS; start += batch) {
      // Spread over the last 29 days (retention keeps 30), one line in ten an error.
      await client.query(
        `insert into "RequestLog" (id, "organizationId", "apiKeyId", mode, method, path, status, "errorCode", "errorMessage", "durationMs", ip, "createdAt")
         select 'req_bench' || lpad(g::text, 12, '0'), $1, $2, 'test',
                case when g % 4 = 0 then 'POST' else 'GET' end,
                (array['/v1/renders', '/v1/edits', '/v1/generations', '/v1/styles', '/mcp/create_render'])[1 + g % 5],
                case when g % 10 = 0 then 400 + (g % 3) * 2 else 200 end,
                case when g % 10 = 0 then 'parameter_invalid' end,
                case when g % 10 = 0 then 'bench line' end,
                5 + g % 200, '203.0.113.7',
                now() - ((${ROWS} - g) * (29 * 86400.0 / ${ROWS})) * interval '1 second'
         from generate_series($3::int, $4::int) g`,
        [organizationId, key.rows[0]?.id ?? null, start, Math.min(start + batch, ROWS) - 1],
      );
    }
    await client.query('analyze "RequestLog"');
  } finally {
    await client.end();
  }
}

test('console page timings with 1 M request-log rows', async ({ page, demo }) => {
  const seeded = Date.now();
  await seedLog(demo.dataDir, demo.organizationId);
  const seedS = (Date.now() - seeded) / 1000;
  console.log(`seeded ${ROWS} request-log rows in ${seedS.toFixed(1)} s`);

  // Interactive = the page's data is on screen *and* React has hydrated it (its fiber is attached
  // to the element, so handlers work): the pages are server-rendered, so the rows are in the HTML
  // before the app runs and "in the DOM" alone does not mean interactive. Recorded by the
  // page itself (a MutationObserver, then one check per frame).
  await page.addInitScript(() => {
    const w = window as unknown as { __ready?: number; __data?: number };
    const hydrated = (el: Element) => Object.keys(el).some((k) => k.startsWith('__reactFiber'));
    const check = () => {
      const el = document.querySelector('[data-row-id], [data-testid="balance"]');
      if (el && w.__data === undefined) w.__data = performance.now();
      if (el && hydrated(el)) w.__ready = performance.now();
      else requestAnimationFrame(check);
    };
    const observer = new MutationObserver(() => {
      if (document.querySelector('[data-row-id], [data-testid="balance"]')) {
        observer.disconnect();
        check();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  await signInWithPassword(page, demo.email, demo.password);

  const results: Record<string, { first_render_ms: number; interactive_ms: number }> = {};
  for (const [name, screen] of [
    ['overview', 'overview'],
    ['request log', 'logs'],
    ['request log, errors only', 'logs?statusClass=errors'],
  ] as const) {
    const fcp: number[] = [];
    const ready: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      await page.goto(`/o/${demo.organizationId}/test/${screen}`);
      await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready !== undefined, undefined, { timeout: 30_000 });
      const timing = await page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        ready: (window as unknown as { __ready: number }).__ready,
      }));
      if (i === 0) continue; // the first load warms the server's caches and prepared statements
      fcp.push(timing.fcp);
      ready.push(timing.ready);
    }
    results[name] = { first_render_ms: Math.round(median(fcp)), interactive_ms: Math.round(median(ready)) };
  }

  // One log page (50 lines) through /api/trpc, as the page asks for it.
  const latencies = await page.evaluate(
    async ({ organizationId, runs }) => {
      const out: Record<string, number[]> = {};
      for (const [name, extra] of [
        ['first page', {}],
        ['errors only', { statusClass: 'errors' }],
        ['by path', { path: '/v1/edits' }],
      ] as const) {
        out[name] = [];
        const input = encodeURIComponent(JSON.stringify({ 0: { organizationId, mode: 'test', limit: 50, ...extra } }));
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          const res = await fetch(`/api/trpc/logs.list?batch=1&input=${input}`);
          await res.json();
          out[name].push(performance.now() - t0);
        }
      }
      return out;
    },
    { organizationId: demo.organizationId, runs: 30 },
  );
  const trpc = Object.fromEntries(Object.entries(latencies).map(([k, v]) => [k, { median_ms: Math.round(median(v) * 10) / 10, p95_ms: Math.round(p95(v) * 10) / 10 }]));

  const report: PageFigures & { measured_at: string } = { rows: ROWS, runs: RUNS, seed_s: Math.round(seedS * 10) / 10, pages: results, trpc_log_page: trpc, measured_at: new Date().toISOString() };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(report, null, 2));
  await test.info().attach(FIGURES, { body: JSON.stringify(report), contentType: 'application/json' });
  console.log(JSON.stringify(report, null, 2));
});
