import { db } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import type { Mode } from '@/generated/prisma/enums';

/**
 * The request log behind the console's "Requests" screen. Entries are buffered and written in
 * batches (one INSERT per 250 ms or 200 requests) so logging never adds a round trip to the
 * request path; a crash can lose at most the last batch of log lines, never business data.
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
  durationMs: number;
  ip: string | null;
  createdAt: Date;
}

const FLUSH_MS = 250;
const MAX_BATCH = 200;

const state = globalThis as unknown as { roomtoneRequestLog?: { buffer: RequestLogEntry[]; timer: NodeJS.Timeout | null; flushing: Promise<void> | null } };
const rl = (state.roomtoneRequestLog ??= { buffer: [], timer: null, flushing: null });

export function recordRequest(entry: RequestLogEntry): void {
  rl.buffer.push(entry);
  if (rl.buffer.length >= MAX_BATCH) void flushRequestLog();
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
  rl.flushing = db()
    .requestLog.createMany({ data: batch, skipDuplicates: true })
    .then(() => undefined)
    .catch((error: unknown) => log.error('request log write failed', { error: String(error), lost: batch.length }))
    .finally(() => {
      rl.flushing = null;
    });
  await rl.flushing;
}
