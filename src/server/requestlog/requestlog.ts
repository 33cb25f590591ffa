import { isDatabaseUnavailable, sql, sqlTimestamp } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import type { Mode } from '@/generated/prisma/enums';

/**
 * The request log behind the console's "Requests" screen. Entries are buffered and written in
 * batches (one INSERT per 250 ms or 200 requests) so logging never adds a round trip to the
 * request path; a crash can lose at most the last batch of log lines, never business data.
 * While the database is unreachable the lines wait in memory (up to MAX_KEPT) and are written
 * once it is back, so the console shows the requests of an outage too.
 * The INSERT is one prepared statement whatever the batch size (INSERT_BATCH).
 */
export interface RequestLogEntry {
  id: string;
  organizationId: string | null;
  apiKeyId: string | null;
  mode: Mode | null;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  /** The message of an error reply (shown in the console's log detail). */
  errorMessage?: string | null;
  durationMs: number;
  ip: string | null;
  createdAt: Date;
  /** Redacted JSON text (redact.ts): what the request asked and what it answered. */
  requestParams?: string | null;
  responseBody?: string | null;
}

const FLUSH_MS = 250;
const MAX_BATCH = 200;
/** While the database is unreachable: lines kept in memory at most, and the retry interval. */
const MAX_KEPT = 20_000;
const RETRY_MS = 2_000;

const state = globalThis as unknown as {
  roomtoneRequestLog?: { buffer: RequestLogEntry[]; timer: NodeJS.Timeout | null; flushing: Promise<void> | null; waitingForDatabase?: boolean };
};
const rl = (state.roomtoneRequestLog ??= { buffer: [], timer: null, flushing: null });

/**
 * A batch is two parameters: a JSON document of the lines' short fields, and the logged bodies
 * (JSON text already) back to back in one bytea, which pg sends as binary. Each line names
 * where its bodies start and how many bytes they take. PostgreSQL copies a body out of the
 * bytea without parsing it (the columns are text). Measured on a list read (20 generations,
 * about 12 kB logged): as json values inside the document, PostgreSQL parsed every body twice,
 * a quarter of its CPU per read; before that, as text[]/jsonb[] parameters, pg escaped every
 * character of them into array literals, 0.5–0.7 ms of Node CPU per logged page.
 */
const INSERT_BATCH = `insert into "RequestLog" (id, "organizationId", "apiKeyId", mode, method, path, status, "errorCode", "durationMs", ip, "createdAt", "errorMessage", "requestParams", "responseBody")
  select id, "organizationId", "apiKeyId", mode, method, path, status, "errorCode", "durationMs", ip, "createdAt", "errorMessage",
    convert_from(substring($2::bytea from "paramsAt" for "paramsBytes"), 'UTF8'), convert_from(substring($2::bytea from "bodyAt" for "bodyBytes"), 'UTF8')
  from json_to_recordset($1::json) as line(id text, "organizationId" text, "apiKeyId" text, mode "Mode", method text, path text, status int, "errorCode" text,
    "durationMs" int, ip text, "createdAt" timestamp(3), "errorMessage" text, "paramsAt" int, "paramsBytes" int, "bodyAt" int, "bodyBytes" int)
  on conflict (id) do nothing`;

/** The two parameters of INSERT_BATCH for a batch. */
function batchParameters(batch: readonly RequestLogEntry[]): [string, Buffer] {
  const bodies: string[] = [];
  // A body the batch already carries is located again, not sent again: a client polling a
  // page gets the same answer many times within a batch.
  const placed = new Map<string, [number, number]>();
  let at = 1; // substring() counts from 1
  const place = (text: string | null | undefined): [number | null, number | null] => {
    if (text === null || text === undefined) return [null, null];
    const known = placed.get(text);
    if (known) return known;
    const bytes = Buffer.byteLength(text);
    bodies.push(text);
    at += bytes;
    const location: [number, number] = [at - bytes, bytes];
    placed.set(text, location);
    return location;
  };
  const lines = batch.map((e) => {
    const [paramsAt, paramsBytes] = place(e.requestParams);
    const [bodyAt, bodyBytes] = place(e.responseBody);
    return JSON.stringify({
      id: e.id,
      organizationId: e.organizationId,
      apiKeyId: e.apiKeyId,
      mode: e.mode,
      method: e.method,
      path: e.path,
      status: e.status,
      errorCode: e.errorCode,
      durationMs: e.durationMs,
      ip: e.ip,
      createdAt: sqlTimestamp(e.createdAt),
      errorMessage: e.errorMessage ?? null,
      paramsAt,
      paramsBytes,
      bodyAt,
      bodyBytes,
    });
  });
  return [`[${lines.join(',')}]`, Buffer.from(bodies.join(''))];
}

export function recordRequest(entry: RequestLogEntry): void {
  rl.buffer.push(entry);
  if (rl.buffer.length >= MAX_BATCH && !rl.waitingForDatabase) void flushRequestLog();
  else rl.timer ??= setTimeout(() => void flushRequestLog(), FLUSH_MS);
}

/** One statement per MAX_BATCH lines (after an outage the buffer holds many batches). */
async function insertBatch(batch: readonly RequestLogEntry[]): Promise<void> {
  for (let i = 0; i < batch.length; i += MAX_BATCH) await sql(INSERT_BATCH, batchParameters(batch.slice(i, i + MAX_BATCH)));
}

export async function flushRequestLog(): Promise<void> {
  if (rl.timer) {
    clearTimeout(rl.timer);
    rl.timer = null;
  }
  if (rl.flushing) await rl.flushing;
  const batch = rl.buffer.splice(0, rl.buffer.length);
  if (batch.length === 0) return;
  rl.flushing = insertBatch(batch)
    .then(() => {
      rl.waitingForDatabase = false;
    })
    .catch((error: unknown) => {
      // The database is away (a restart, an outage): keep the lines, bounded, and try again.
      if (isDatabaseUnavailable(error) && rl.buffer.length + batch.length <= MAX_KEPT) {
        rl.buffer.unshift(...batch);
        rl.waitingForDatabase = true;
        rl.timer ??= setTimeout(() => void flushRequestLog(), RETRY_MS);
        return;
      }
      log.error('request log write failed', { error: String(error), lost: batch.length });
    })
    .finally(() => {
      rl.flushing = null;
    });
  await rl.flushing;
}
