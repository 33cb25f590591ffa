/**
 * The retry schedule (spec, Events, delivery rule 2): attempt 2 after 30 s, 3 after 1 min,
 * 4 after 2 min, 5 to 12 doubling (4 min … 8 h 32), 13 and later every 12 h; each delay
 * ±10 % jitter; a Retry-After answer is honoured up to 12 h; nothing automatic after 72 h
 * from the event (about 16 attempts).
 */
export const RETRY_WINDOW_MS = 72 * 3600 * 1000;
export const MAX_DELAY_MS = 12 * 3600 * 1000;
export const JITTER = 0.1;

/** Planned delay before attempt `attempt` (≥ 2), without jitter. */
export function baseDelayMs(attempt: number): number {
  if (attempt < 2) return 0;
  if (attempt >= 13) return MAX_DELAY_MS;
  return 30_000 * 2 ** (attempt - 2);
}

/**
 * When attempt `nextAttempt` happens, or null when it would fall beyond the 72 h window.
 * A Retry-After longer than the jittered delay wins (we never come back sooner than asked), up
 * to 12 h (`retryAfterMs`: the endpoint's Retry-After read by `net/retry-after.ts`).
 */
export function nextAttemptAt(input: {
  nextAttempt: number;
  nowMs: number;
  eventCreatedMs: number;
  retryAfterMs: number | null;
  random?: () => number;
}): number | null {
  const random = input.random ?? Math.random;
  const jittered = baseDelayMs(input.nextAttempt) * (1 + (random() * 2 - 1) * JITTER);
  const delay = Math.max(jittered, Math.min(input.retryAfterMs ?? 0, MAX_DELAY_MS));
  const at = Math.round(input.nowMs + delay);
  return at > input.eventCreatedMs + RETRY_WINDOW_MS ? null : at;
}
