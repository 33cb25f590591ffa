// @node-lines same: our backoff arithmetic
import { describe, expect, it } from 'vitest';
import { backoffMs, retryDelayMs, RETRY_MAX_MS } from './retry-policy';

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
