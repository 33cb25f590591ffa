/**
 * The console's request-log page at 1 M rows: the same service function as logs.list
 * (listRequestLog) and the overview's error groups, against a table of 1,000,000 lines of one
 * organization (plus 100,000 of another), spread over 30 days, 95 % 2xx / 4.5 % 4xx / 0.5 % 5xx.
 * Median of repeated calls in process (no HTTP), warm cache, as a console user would page.
 */
import { fmt, markdownTable, medianOfRuns, type BenchContext, type SectionOutput } from '../lib';

const ROWS = 1_000_000;
const OTHER_ROWS = 100_000;
const RUNS = 15;
const ORG = 'org_benchlog';
const OTHER = 'org_benchlogother';
const KEY = 'key_benchlog1';

async function seed(sqlText: (text: string, values?: unknown[]) => Promise<unknown>): Promise<void> {
  await sqlText(`insert into "Organization" (id, name) values ($1, 'Bench log'), ($2, 'Other') on conflict do nothing`, [ORG, OTHER]);
  await sqlText(
    `insert into "ApiKey" (id, "organizationId", mode, name, prefix, "secretHash", permissions) values
     ($1, $2, 'live', 'Bench key 1', 'rt_live_aaaa', 'benchhash1', '{}'), ('key_benchlog2', $2, 'live', 'Bench key 2', 'rt_live_bbbb', 'benchhash2', '{}')
     on conflict do nothing`,
    [KEY, ORG],
  );
  // One statement per organization; ids and times grow with the series (30 days back to now).
  const insert = (org: string, count: number, prefix: string) =>
    sqlText(
      `insert into "RequestLog" (id, "organizationId", "apiKeyId", mode, method, path, status, "errorCode", "errorMessage", "durationMs", ip, "createdAt")
       select '${prefix}' || g,
         $1,
         case when g % 3 = 0 then 'key_benchlog2' else '${KEY}' end,
         (case when g % 10 = 0 then 'test' else 'live' end)::"Mode",
         case when g % 4 = 0 then 'POST' else 'GET' end,
         (array['/v1/generations','/v1/upscales','/v1/edits','/v1/renders','/v1/styles','/v1/edit-materials','/mcp/create_upscale','/v1/decorations'])[1 + g % 8],
         case when g % 200 = 7 then 500 when g % 200 < 9 then (array[400,401,404,402,429,409,400,404,422])[1 + g % 9] else 200 end,
         case when g % 200 = 7 then 'internal_error' when g % 200 < 9 then (array['parameter_invalid','api_key_invalid','resource_not_found','insufficient_balance','rate_limit_exceeded','idempotency_key_reused','parameter_invalid','resource_not_found','mask_invalid'])[1 + g % 9] else null end,
         null,
         (g % 900) + 5,
         '203.0.113.' || (g % 250),
         now() at time zone 'utc' - make_interval(secs => (${count} - g) * (30 * 86400.0 / ${count}))
       from generate_series(1, ${count}) g`,
      [org],
    );
  await insert(ORG, ROWS, 'req_b');
  await insert(OTHER, OTHER_ROWS, 'req_o');
  await sqlText('analyze "RequestLog"');
}

export async function requestLogSection(ctx: BenchContext): Promise<SectionOutput> {
  const database = await ctx.database();
  const { sql } = await import('@/server/platform/db');
  const { listRequestLog, errorGroups } = await import('@/server/capabilities/requestlog/search-request-log');
  const started = Date.now();
  // Seeded through a connection of its own: a million-row insert is no service query, and the
  // service's pool would end it at its statement timeout (DATABASE_STATEMENT_TIMEOUT_MS).
  const { default: pg } = await import('pg');
  const seeder = new pg.Client({ connectionString: database.url });
  await seeder.connect();
  try {
    await seed((text, values = []) => seeder.query(text, values));
  } finally {
    await seeder.end();
  }
  ctx.log(`request log: ${fmt(ROWS + OTHER_ROWS)} lines inserted with their indexes in ${fmt((Date.now() - started) / 1000, 1)} s`);

  const scope = { organizationId: ORG, mode: 'live' as const };
  const page = { limit: 50 };
  const deep = await listRequestLog(scope, {}, { limit: 100 });
  let cursor = deep.next_cursor ?? undefined;
  for (let i = 0; i < 49 && cursor; i++) cursor = (await listRequestLog(scope, {}, { limit: 100, cursor })).next_cursor ?? undefined;
  const aRequestId = (await listRequestLog(scope, { statusClass: '5xx' }, { limit: 1 })).data[0]?.id;
  const nowSeconds = Math.floor(Date.now() / 1000);

  const scenarios: [string, () => Promise<unknown>][] = [
    ['first page (50 newest)', () => listRequestLog(scope, {}, page)],
    ['page after 5,000 lines (cursor)', () => listRequestLog(scope, {}, { ...page, cursor })],
    ['status 5xx (0.5 %)', () => listRequestLog(scope, { statusClass: '5xx' }, page)],
    ['errors (4xx + 5xx)', () => listRequestLog(scope, { statusClass: 'errors' }, page)],
    ['error code internal_error', () => listRequestLog(scope, { errorCode: 'internal_error' }, page)],
    ['one key', () => listRequestLog(scope, { apiKeyId: KEY }, page)],
    ['one path', () => listRequestLog(scope, { path: '/v1/upscales' }, page)],
    ['one path + POST', () => listRequestLog(scope, { path: '/v1/generations', method: 'POST' }, page)],
    ['path + method that never occur together (worst case)', () => listRequestLog(scope, { path: '/v1/upscales', method: 'POST' }, page)],
    ['time range: a day 10 days ago', () => listRequestLog(scope, { from: nowSeconds - 11 * 86400, to: nowSeconds - 10 * 86400 }, page)],
    ['request-id search', () => listRequestLog(scope, { requestId: aRequestId }, page)],
    ['overview: errors grouped, 7 days', () => errorGroups(scope, new Date(Date.now() - 7 * 86_400_000))],
  ];
  const rows: string[][] = [];
  const raw: Record<string, unknown> = {};
  const failures: string[] = [];
  for (const [name, fn] of scenarios) {
    const stats = await medianOfRuns(RUNS, fn, { warmup: 3 });
    raw[name] = stats;
    rows.push([name, fmt(stats.median, 1), fmt(stats.min, 1), fmt(stats.max, 1)]);
    ctx.log(`request log: ${name}: median ${fmt(stats.median, 1)} ms`);
  }
  const plan = await sql<{ 'QUERY PLAN': string }>(
    `explain select id from "RequestLog" l where l."organizationId" = $1 and l.mode = 'live'::"Mode" and l.status between 500 and 599 order by l."createdAt" desc, l.seq desc limit 51`,
    [ORG],
  );
  raw.plan5xx = plan.map((p) => p['QUERY PLAN']);
  ctx.log(`request log: plan of the 5xx page:\n${plan.map((p) => p['QUERY PLAN']).join('\n')}`);
  if (!aRequestId) failures.push('request log: no 5xx line was seeded');
  const markdown = [
    `### Request log page at ${fmt(ROWS)} rows (console \`logs.list\`, in process, median of ${RUNS}, ms)`,
    '',
    markdownTable(['Query (one organization, live mode)', 'Median', 'Min', 'Max'], rows),
  ].join('\n');
  return { markdown, raw, failures };
}
