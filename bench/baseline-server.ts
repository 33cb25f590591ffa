/**
 * Baseline for the HTTP benchmark: the least a correct server must do for the two read routes,
 * with no framework. node:http + one pg Pool over the same database as Roomtone:
 *   1. API key: SHA-256 of the bearer secret, looked up by "ApiKey"."secretHash";
 *   2. GET /v1/generations/{id}: the row scoped by organization and mode;
 *      GET /v1/generations?limit=N: N+1 rows by organization and mode, newest seq first;
 *   3. the spec's generation object (same fields, output URLs HMAC-signed like the real
 *      store's) JSON-encoded.
 * Left out on purpose (they are Roomtone's overhead to measure): rate limits, the request
 * log, lastUsedAt, input/output validation, routing layers.
 *
 * Env: PORT, DATABASE_URL, APP_SECRET, PUBLIC_BASE_URL, DATABASE_POOL_SIZE (default 10) and
 * DATABASE_POOL_IDLE_MS (default 5 minutes, as Roomtone's).
 */
import http from 'node:http';
import { createHash, createHmac } from 'node:crypto';
import pg from 'pg';
import { serveBaseline } from './baseline-lifecycle';

const port = Number(process.env.PORT ?? 3100);
const databaseUrl = process.env.DATABASE_URL;
const appSecret = process.env.APP_SECRET;
if (!databaseUrl || !appSecret) throw new Error('DATABASE_URL and APP_SECRET are required');
const baseUrl = (process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');

// Prisma stores DateTime as `timestamp(3)` without zone, in UTC: parse it as UTC.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (text: string) => new Date(`${text.replace(' ', 'T')}Z`));

const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) || 10, idleTimeoutMillis: Number(process.env.DATABASE_POOL_IDLE_MS ?? 300_000) });

// Same derivation and message as src/server/capabilities/storage/storage.ts, so the work per URL is equal.
const fileUrlKey = createHmac('sha256', appSecret).update('file-url').digest();
const OUTPUT_URL_TTL_SECONDS = 15 * 60;
const RETENTION_MS = 24 * 3600 * 1000;
const KEY_PATTERN = /^rt_(test|live)_[0-9A-Za-z]{40}$/;
const GEN_ID_PATTERN = /^gen_[0-9A-Za-z]{1,64}$/;

interface GenerationRow {
  id: string;
  mode: 'test' | 'live';
  type: string;
  status: string;
  input: Record<string, unknown> | null;
  metadata: Record<string, string> | null;
  outputs: { key: string; contentType: string; width: number; height: number }[] | null;
  costAmount: number;
  discountPercent: number;
  amountRefunded: number;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Date;
  startedAt: Date | null;
  progress: number | null;
  completedAt: Date | null;
  expiresAt: Date | null;
  imagesDeletedAt: Date | null;
}

const COLUMNS = `id, mode, type, status, input, metadata, outputs, "costAmount", "discountPercent", "amountRefunded",
  "errorCode", "errorMessage", "createdAt", "startedAt", "completedAt", "expiresAt", "imagesDeletedAt", progress`;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function signedUrl(key: string, expiresAt: number): string {
  const signature = createHmac('sha256', fileUrlKey).update(`${key}\n${expiresAt}`).digest('base64url');
  return `${baseUrl}/files/${key.split('/').map(encodeURIComponent).join('/')}?expires=${expiresAt}&signature=${signature}`;
}

function toApi(row: GenerationRow, now: number) {
  const urlExpiresAt = now + OUTPUT_URL_TTL_SECONDS;
  const outputs = row.imagesDeletedAt ? [] : (row.outputs ?? []);
  return {
    object: 'generation',
    id: row.id,
    type: row.type,
    status: row.status,
    progress: row.status === 'succeeded' ? 1 : row.status === 'in_progress' ? (row.startedAt === null ? 0 : row.progress) : null,
    cancelable: row.status === 'in_progress' && row.startedAt === null,
    livemode: row.mode === 'live',
    created_at: seconds(row.createdAt),
    completed_at: row.completedAt ? seconds(row.completedAt) : null,
    input: row.input ?? {},
    output: outputs.map((o) => ({
      url: signedUrl(o.key, urlExpiresAt),
      url_expires_at: urlExpiresAt,
      content_type: o.contentType,
      width: o.width,
      height: o.height,
    })),
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
    cost: { amount: row.costAmount, currency: 'eur', unit: 'cents', discount_percent: row.discountPercent, amount_refunded: row.amountRefunded },
    metadata: row.metadata ?? {},
    expires_at: seconds(row.expiresAt ?? new Date(row.createdAt.getTime() + RETENTION_MS)),
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const error = (code: string, message: string) => ({ error: { code, message } });

async function authenticate(authorization: string | undefined): Promise<{ organizationId: string; mode: string } | null> {
  const secret = /^Bearer\s+(\S+)\s*$/i.exec(authorization?.trim() ?? '')?.[1];
  if (!secret || !KEY_PATTERN.test(secret)) return null;
  const hash = createHash('sha256').update(secret).digest('hex');
  const { rows } = await pool.query<{ organizationId: string; mode: string }>(
    'select "organizationId", mode from "ApiKey" where "secretHash" = $1 and "revokedAt" is null',
    [hash],
  );
  return rows[0] ?? null;
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
  if (req.method !== 'GET') return send(res, 405, error('method_not_allowed', 'GET only.'));
  const key = await authenticate(req.headers.authorization);
  if (!key) return send(res, 401, error('api_key_invalid', 'The API key is unknown or has been revoked.'));
  const now = Math.floor(Date.now() / 1000);

  if (url.pathname === '/v1/generations') {
    const limit = Number(url.searchParams.get('limit') ?? '10');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return send(res, 400, error('parameter_invalid', "'limit' must be 1..100."));
    const { rows } = await pool.query<GenerationRow>(
      `select ${COLUMNS} from "Generation" where "organizationId" = $1 and mode = $2 order by seq desc limit $3`,
      [key.organizationId, key.mode, limit + 1],
    );
    return send(res, 200, { object: 'list', data: rows.slice(0, limit).map((r) => toApi(r, now)), has_more: rows.length > limit });
  }

  const id = url.pathname.startsWith('/v1/generations/') ? url.pathname.slice('/v1/generations/'.length) : null;
  if (id !== null) {
    if (!GEN_ID_PATTERN.test(id)) return send(res, 400, error('parameter_invalid', "'id' is not a generation id."));
    const { rows } = await pool.query<GenerationRow>(
      `select ${COLUMNS} from "Generation" where id = $1 and "organizationId" = $2 and mode = $3`,
      [id, key.organizationId, key.mode],
    );
    const row = rows[0];
    if (!row) return send(res, 404, error('resource_not_found', `No such generation: '${id}'.`));
    return send(res, 200, toApi(row, now));
  }
  return send(res, 404, error('resource_not_found', 'Unknown route.'));
}

serveBaseline('baseline', port, pool, handle);
