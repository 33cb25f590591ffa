import { log } from '@/server/platform/logger';

/**
 * pg-boss's `error` events. During a database outage its loops (maintenance, polling, each
 * worker) fail every few seconds with the same cause, and some hand a plain object rather than
 * an Error (which printed as "[object Object]"). One line per distinct cause (message and code)
 * per QUEUE_ERROR_INTERVAL_MS, saying how many were held back since the last line.
 */
export const QUEUE_ERROR_INTERVAL_MS = 60_000;

/** The message and code of whatever was thrown or emitted (an Error, an AggregateError, an object). */
export function describeError(error: unknown): { message: string; code: string | null } {
  if (error === null || error === undefined) return { message: String(error), code: null };
  if (typeof error !== 'object') return { message: String(error), code: null };
  const e = error as { message?: unknown; code?: unknown; errors?: unknown; error?: unknown; cause?: unknown };
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : null;
  let message = typeof e.message === 'string' ? e.message : '';
  // AggregateError (e.g. a refused connection on each address) has an empty message of its own.
  if (!message && Array.isArray(e.errors) && e.errors.length > 0) {
    const inner = describeError(e.errors[0]);
    return { message: inner.message, code: code ?? inner.code };
  }
  if (!message && e.error !== undefined) return describeError(e.error);
  if (!message) {
    try {
      message = JSON.stringify(error);
    } catch {
      message = Object.prototype.toString.call(error);
    }
  }
  return { message, code };
}

const seen = new Map<string, { at: number; held: number }>();

/** Log a queue error unless the same cause was logged less than an interval ago. */
export function logQueueError(error: unknown, now = Date.now()): void {
  const { message, code } = describeError(error);
  const key = `${code ?? ''}\u0000${message}`;
  const last = seen.get(key);
  if (last && now - last.at < QUEUE_ERROR_INTERVAL_MS) {
    last.held += 1;
    return;
  }
  if (seen.size > 100) seen.clear();
  seen.set(key, { at: now, held: 0 });
  log.error('job queue error', { error: message, code, ...(last?.held ? { sameSinceLastLine: last.held } : {}) });
}
