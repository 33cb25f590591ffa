import { isDatabaseUnavailable, sql, sqlTimestamp } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import type { Mode } from '@/generated/prisma/enums';

/**
 * The request log behind the console's "Requests" screen. Entries are buffered and written in
 * batches (one INSERT per 250 ms or 200 requests) so logging never adds a round trip to the
 * request path; a crash can lose at most the last batch of log lines, never business data.
 * While the database is unreachable the lines wait in memory (up to MAX_KEPT) and are written
 * once it is back, so the console shows the requests of an outage too.
 * The INSERT is one prepared statement over arrays (unnest), whatever the batch size.
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

const INSERT_BATCH = `insert into "RequestLog" (id, "organizationId", "apiKeyId", mode, method, path, status, "errorCode", "durationMs", ip, "createdAt", "errorMessage", "requestParams", "responseBody")
  select * from unnest($1::text[], $2::text[], $3::text[], $4::"Mode"[], $5::text[], $6::text[], $7::int[], $8::text[], $9::int[], $10::text[], $11::timestamp(3)[], $12::text[], $13::jsonb[], $14::jsonb[])
  on conflict (id) do nothing`;

export function recordRequest(entry: RequestLogEntry): void {
  rl.buffer.push(entry);
  if (rl.buffer.length >= MAX_BATCH && !rl.waitingForDatabase) void flushRequestLog();
  else rl.timer ??= setTimeout(() => void flushRequestLog(), FLUSH_MS);
}

export async function flushRequestLog(): Promise<void> {
  if (rl.timer) {
    clearTimeout(rl.timer);
    rl.timer = null;
  }
  if (rl.flushing) await rl.flushing;
  const batch = rl.buffer.splice(0, rl.buffer.length);
  if (batch.length === 0) return;
  rl.flushing = sql(INSERT_BATCH, [
    batch.map((e) => e.id),
    batch.map((e) => e.organizationId),
    batch.map((e) => e.apiKeyId),
    batch.map((e) => e.mode),
    batch.map((e) => e.method),
    batch.map((e) => e.path),
    batch.map((e) => e.status),
    batch.map((e) => e.errorCode),
    batch.map((e) => e.durationMs),
    batch.map((e) => e.ip),
    batch.map((e) => sqlTimestamp(e.createdAt)),
    batch.map((e) => e.errorMessage ?? null),
    batch.map((e) => e.requestParams ?? null),
    batch.map((e) => e.responseBody ?? null),
  ])
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
