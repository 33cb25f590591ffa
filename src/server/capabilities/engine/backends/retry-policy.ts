/**
 * The one retry policy of every generative backend. A transient failure (429, 5xx, network, a
 * run that failed) is retried by run-backend's attempt loop and nowhere else: the clients' own
 * retries are off (OpenAI's maxRetries 0; Replicate and ComfyUI are plain HTTP here), so
 * retries never multiply. The wait honours the backend's Retry-After (`net/retry-after.ts`),
 * else it backs off exponentially with jitter; never past the generation's deadline.
 */
export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

/** Exponential backoff with "equal jitter": after attempt n, between half and all of base·2^(n-1), capped. */
export function backoffMs(failedAttempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failedAttempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * How long to wait before the next attempt: never sooner than the backend's Retry-After (plus up
 * to 10 % so throttled workers do not return in step), and never sooner than the backoff.
 */
export function retryDelayMs(failedAttempt: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  const backoff = backoffMs(failedAttempt, random);
  if (retryAfterMs === null) return backoff;
  return Math.max(backoff, Math.round(retryAfterMs + random() * Math.min(1_000, retryAfterMs * 0.1)));
}
