import { sql, sqlTimestamp } from '@/server/platform/db';
import { invalidParam, notFound } from '@/server/platform/errors';
import { toUnixSeconds } from '@/server/platform/clock';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import type { Scope } from '@/server/capabilities/generations/generations';

/**
 * The console's request log: one organization and mode, newest first (time, then insertion
 * order), with filters that each have an index of their own (organization, mode, <filter>,
 * createdAt desc, seq desc) so a page stays a short index scan at millions of rows
 * (bench/request-log-page.ts; figure in docs/performance.md).
 */
export interface LogFilters {
  statusClass?: '2xx' | '3xx' | '4xx' | '5xx' | 'errors' | undefined;
  errorCode?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  apiKeyId?: string | undefined;
  /** Unix seconds, inclusive / exclusive. */
  from?: number | undefined;
  to?: number | undefined;
  /** Exact request-id (req_…): the one line, if it is in this scope. */
  requestId?: string | undefined;
}

interface LogRow {
  id: string;
  seq: bigint;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  errorMessage: string | null;
  durationMs: number;
  ip: string | null;
  createdAt: Date;
  apiKeyId: string | null;
  keyName: string | null;
  keyPrefix: string | null;
}

export interface LogLineView {
  id: string;
  created_at: number;
  /** Milliseconds since the epoch (lines of one second keep their order on screen). */
  created_at_ms: number;
  method: string;
  path: string;
  status: number;
  error_code: string | null;
  duration_ms: number;
  api_key: { id: string; name: string | null; prefix: string | null } | null;
}

const SELECT = `select l.id, l.seq, l.method, l.path, l.status, l."errorCode", l."errorMessage", l."durationMs", l.ip, l."createdAt", l."apiKeyId",
  k.name as "keyName", k.prefix as "keyPrefix"
  from "RequestLog" l left join "ApiKey" k on k.id = l."apiKeyId"`;

const STATUS_RANGES = { '2xx': [200, 299], '3xx': [300, 399], '4xx': [400, 499], '5xx': [500, 599], errors: [400, 599] } as const;

function lineView(row: LogRow): LogLineView {
  return {
    id: row.id,
    created_at: toUnixSeconds(row.createdAt),
    created_at_ms: row.createdAt.getTime(),
    method: row.method,
    path: row.path,
    status: row.status,
    error_code: row.errorCode,
    duration_ms: row.durationMs,
    api_key: row.apiKeyId ? { id: row.apiKeyId, name: row.keyName, prefix: row.keyPrefix } : null,
  };
}

export async function listRequestLog(scope: Scope, filters: LogFilters, page: PageParams): Promise<Page<LogLineView>> {
  const values: unknown[] = [scope.organizationId, scope.mode];
  const where = ['l."organizationId" = $1', 'l.mode = $2::"Mode"'];
  if (page.cursor) {
    const cursor = await sql<{ seq: bigint; createdAt: Date }>(`select seq, "createdAt" from "RequestLog" where id = $1 and "organizationId" = $2 and mode = $3::"Mode"`, [
      page.cursor,
      scope.organizationId,
      scope.mode,
    ]);
    if (!cursor[0]) throw invalidParam('cursor', 'Unknown cursor.');
    // A row comparison: the (…, createdAt desc, seq desc) indexes serve it as one range.
    where.push(`(l."createdAt", l.seq) < ($${values.push(sqlTimestamp(cursor[0].createdAt))}::timestamp(3), $${values.push(cursor[0].seq)})`);
  }
  if (filters.requestId) where.push(`l.id = $${values.push(filters.requestId)}`);
  if (filters.statusClass) {
    const [low, high] = STATUS_RANGES[filters.statusClass];
    where.push(`l.status between $${values.push(low)} and $${values.push(high)}`);
  }
  if (filters.errorCode) where.push(`l."errorCode" = $${values.push(filters.errorCode)}`);
  if (filters.method) where.push(`l.method = $${values.push(filters.method)}`);
  // A prefix ("/v1/generations" also finds /v1/generations/gen_…); LIKE's wildcards in it are literal.
  if (filters.path) where.push(`l.path like $${values.push(`${filters.path.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  if (filters.apiKeyId) where.push(`l."apiKeyId" = $${values.push(filters.apiKeyId)}`);
  if (filters.from !== undefined) where.push(`l."createdAt" >= $${values.push(sqlTimestamp(new Date(filters.from * 1000)))}`);
  if (filters.to !== undefined) where.push(`l."createdAt" < $${values.push(sqlTimestamp(new Date(filters.to * 1000)))}`);
  const limit = values.push(page.limit + 1);
  const rows = await sql<LogRow>(`${SELECT} where ${where.join(' and ')} order by l."createdAt" desc, l.seq desc limit $${limit}`, values);
  return pageOf(rows, page.limit, (r) => r.id, lineView);
}

export interface LogDetailView extends LogLineView {
  error_message: string | null;
  ip: string | null;
  /** The generation this request created, or the one an idempotent repeat answered with. */
  generation_id: string | null;
  /** Whether the answer was an earlier request's (same Idempotency-Key): its generation is that request's. */
  idempotent_repeat: boolean;
  /** What the request asked ({query, body, idempotency_key}) and what it answered, redacted (requestlog/redact.ts); null when not kept. */
  request_params: unknown;
  response_body: unknown;
}

export async function getRequestLogLine(scope: Scope, id: string): Promise<LogDetailView> {
  const rows = await sql<LogRow>(`${SELECT} where l.id = $1 and l."organizationId" = $2 and l.mode = $3::"Mode"`, [id, scope.organizationId, scope.mode]);
  const row = rows[0];
  if (!row) throw notFound(`No request ${id} in this mode's log.`, 'id');
  const [generation, bodies] = await Promise.all([
    sql<{ id: string }>(`select id from "Generation" where "requestId" = $1 and "organizationId" = $2 and mode = $3::"Mode"`, [id, scope.organizationId, scope.mode]),
    // Stored once per organization as text (requestlog.ts); read back as JSON here, the only reader.
    sql<{ requestParams: unknown; responseBody: unknown }>(
      `select p.body::json as "requestParams", r.body::json as "responseBody" from "RequestLog" l
         left join "RequestLogBody" p on p.hash = l."requestParamsHash" and p."organizationId" = l."organizationId"
         left join "RequestLogBody" r on r.hash = l."responseBodyHash" and r."organizationId" = l."organizationId"
       where l.id = $1 and l."organizationId" = $2`,
      [id, scope.organizationId],
    ),
  ]);
  const created = generation[0]?.id ?? null;
  const answered = answeredGeneration(bodies[0]?.responseBody);
  // An answered generation this request did not create is an earlier request's: a repeat (same Idempotency-Key).
  const repeat = created === null && answered !== null && row.method === 'POST';
  if (answered) {
    const own = await sql<{ id: string }>(`select id from "Generation" where id = $1 and "organizationId" = $2 and mode = $3::"Mode"`, [answered, scope.organizationId, scope.mode]);
    if (own.length === 0) return { ...lineView(row), error_message: row.errorMessage, ip: row.ip, generation_id: created, idempotent_repeat: false, request_params: bodies[0]?.requestParams ?? null, response_body: bodies[0]?.responseBody ?? null };
  }
  return {
    ...lineView(row),
    error_message: row.errorMessage,
    ip: row.ip,
    generation_id: created ?? answered,
    idempotent_repeat: repeat,
    request_params: bodies[0]?.requestParams ?? null,
    response_body: bodies[0]?.responseBody ?? null,
  };
}

export interface ErrorGroupView {
  error_code: string;
  method: string;
  path: string;
  count: number;
  last_seen_at: number;
  /** The newest request of the group, to open in the log. */
  sample_request_id: string;
}

/** The last errors grouped by code and route (Stripe Workbench's errors view), newest group first. */
export async function errorGroups(scope: Scope, since: Date, limit = 10): Promise<ErrorGroupView[]> {
  const rows = await sql<{ errorCode: string | null; method: string; path: string; count: bigint; lastAt: Date; sample: string }>(
    `select "errorCode", method, path, count(*) as count, max("createdAt") as "lastAt",
       (array_agg(id order by "createdAt" desc, seq desc))[1] as sample
     from "RequestLog"
     where "organizationId" = $1 and mode = $2::"Mode" and status between 400 and 599 and "createdAt" >= $3
     group by "errorCode", method, path order by "lastAt" desc limit $4`,
    [scope.organizationId, scope.mode, sqlTimestamp(since), limit],
  );
  return rows.map((r) => ({
    error_code: r.errorCode ?? 'unknown',
    method: r.method,
    path: r.path,
    count: Number(r.count),
    last_seen_at: toUnixSeconds(r.lastAt),
    sample_request_id: r.sample,
  }));
}

/** The generation a stored answer is (a creation's reply, or GET /v1/generations/{id}). */
function answeredGeneration(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as { object?: unknown; id?: unknown };
  return b.object === 'generation' && typeof b.id === 'string' && /^gen_[0-9A-Za-z]+$/.test(b.id) ? b.id : null;
}
