import { retryAfterMs } from '@/server/capabilities/net/retry-after';

/**
 * How a backend call ended badly, in the spec's terms: `transient` is retried (a bounded number
 * of times) then fails the generation; `refused` is the backend's content refusal
 * (content_policy_violation); `failed` and `timeout` fail at once. All are refunded.
 * `interrupted`: this process is shutting down; the remote job was canceled and the generation
 * stays in progress for the job's retry on another (or the restarted) worker.
 */
export type BackendErrorKind = 'transient' | 'refused' | 'failed' | 'timeout' | 'interrupted';

export class BackendError extends Error {
  readonly kind: BackendErrorKind;
  /** The backend's Retry-After, in ms from when it answered (a throttled or busy backend). */
  readonly retryAfterMs: number | null;
  constructor(kind: BackendErrorKind, message: string, options?: { cause?: unknown; retryAfterMs?: number | null }) {
    super(message, options);
    this.name = 'BackendError';
    this.kind = kind;
    this.retryAfterMs = options?.retryAfterMs ?? null;
  }
}

/** Words hosted models use when their safety filter refuses an input or an output. */
const REFUSAL = /nsfw|safety|content[ _-]?polic|moderation|sensitive content|flagged|inappropriate/i;

export function looksLikeRefusal(message: string): boolean {
  return REFUSAL.test(message);
}

/** HTTP status of a backend API answer → what to do about it. */
export function kindForStatus(status: number): BackendErrorKind {
  if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500) return 'transient';
  return 'failed';
}

/** A backend API's non-2xx answer: refusal, transient (with its Retry-After) or failed. */
export function httpFailure(what: string, status: number, body: string, headers: Headers): BackendError {
  return new BackendError(looksLikeRefusal(body) ? 'refused' : kindForStatus(status), `${what}: HTTP ${status} ${body.slice(0, 300)}`.trim(), {
    retryAfterMs: retryAfterMs(headers.get('retry-after')),
  });
}

/** Anything thrown inside an adapter → a BackendError (network errors are transient). */
export function asBackendError(error: unknown, deadline: AbortSignal): BackendError {
  if (error instanceof BackendError) return error;
  if (deadline.aborted) return new BackendError('timeout', 'the backend did not answer in time', { cause: error });
  return new BackendError('transient', error instanceof Error ? error.message : String(error), { cause: error });
}
