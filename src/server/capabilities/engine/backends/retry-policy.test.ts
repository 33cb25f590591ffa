// @node-lines same: our backoff arithmetic and Retry-After reading
import { describe, expect, it } from 'vitest';
import { backoffMs, parseRetryAfter, retryDelayMs, RETRY_MAX_MS } from './retry-policy';

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 25 Nov 2026 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 11:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('backoff', () => {
  it('doubles per failed attempt, with jitter between half and all of it, capped', () => {
    expect(backoffMs(1, () => 0)).toBe(500);
    expect(backoffMs(1, () => 1)).toBe(1_000);
    expect(backoffMs(3, () => 0)).toBe(2_000);
    expect(backoffMs(3, () => 1)).toBe(4_000);
    expect(backoffMs(20, () => 1)).toBe(RETRY_MAX_MS);
  });

  it('never retries sooner than Retry-After, and adds at most 10 % (≤ 1 s) to it', () => {
    expect(retryDelayMs(1, 2_000, () => 0)).toBe(2_000);
    expect(retryDelayMs(1, 2_000, () => 1)).toBe(2_200);
    expect(retryDelayMs(1, 60_000, () => 1)).toBe(61_000);
    // A Retry-After shorter than the backoff: the backoff.
    expect(retryDelayMs(4, 1_000, () => 0)).toBe(4_000);
  });
});
